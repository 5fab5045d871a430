cmake_policy(VERSION 3.21)
# Shared by the packaging tests: run a command and stop with its output when it fails; build and
# run the consumer project in one of its three ways.
function(run_step)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
endfunction()

# build_and_run_consumer(<how> <binary dir> [extra -D arguments...])
function(build_and_run_consumer how dir)
  run_step(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${dir} -DDLPERF_CONSUME=${how}
           -DCMAKE_CXX_COMPILER=${CXX_COMPILER} ${ARGN})
  run_step(${CMAKE_COMMAND} --build ${dir})
  run_step(${dir}/consumer)
endfunction()
