// Not reached from the umbrella: check_umbrella.cmake must name it.
#pragma once
