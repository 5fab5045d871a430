// Every registered enumeration (core/enumeration.hpp's enum_list) round-trips by its stable names:
// the names the tool's flags, its JSON, Python and the page read and write, from one list each.
#include <algorithm>
#include <catch2/catch.hpp>
#include <dlperf/dlperf.hpp>
#include <set>
#include <string>
#include <string_view>

namespace {

// A stable name: non-empty, one word a shell passes whole, and no ',' (flags take lists of
// names joined by commas: --gpu a,b, --lora-targets q,v). Capitals are allowed where the name is
// the vendor's own spelling (NCCL's LL128, GDDR6X).
bool stable_name(std::string_view n) {
  return !n.empty() && std::none_of(n.begin(), n.end(), [](char c) {
    return c == ' ' || c == '\t' || c == ',' || c == '=' || c == '"' || c == '\'';
  });
}

}  // namespace

TEMPLATE_TEST_CASE("every registered enumeration round-trips by its stable names", "[enum]",
                   dlperf::workload_kind, dlperf::use_case, dlperf::utilization_preset,
                   dlperf::electricity_billing, dlperf::power_warning, dlperf::rank_task,
                   dlperf::precision_choice, dlperf::run_mode, dlperf::kv_cache_type,
                   dlperf::selective_checkpointing, dlperf::ffn_kind, dlperf::transformer_kind,
                   dlperf::norm_kind, dlperf::estimate_figure, dlperf::board_class,
                   dlperf::sequence_class, dlperf::lora_target, dlperf::model_kind,
                   dlperf::step_phase, dlperf::collective, dlperf::op_kind, dlperf::optimizer_kind,
                   dlperf::optimizer_kernel, dlperf::stack_id, dlperf::kernel_fusion,
                   dlperf::attention_kernel, dlperf::norm_kernel, dlperf::stack_figure_id,
                   dlperf::stack_figure_domain, dlperf::nccl_protocol, dlperf::split_mode,
                   dlperf::interconnect_kind, dlperf::segment, dlperf::memory_kind,
                   dlperf::price_kind, dlperf::vendor, dlperf::family, dlperf::provenance,
                   dlperf::weight_format, dlperf::tier, dlperf::dtype, dlperf::accumulator,
                   dlperf::sparsity, dlperf::bound, dlperf::form_factor, dlperf::price_basis,
                   dlperf::advice_order) {
  using E = TestType;
  std::set<std::string_view> names;
  for (const E e : dlperf::enum_values<E>) {
    const std::string_view n = dlperf::name(e);
    INFO(dlperf::enum_list<E>::kind << " '" << n << "'");
    CHECK(stable_name(n));
    CHECK(dlperf::parse<E>(n) == e);
    CHECK(names.insert(n).second);  // no two enumerators share a name
  }
  CHECK(names.size() == dlperf::enum_count<E>);
  // An unknown name is refused by the list's kind, naming the valid ones.
  CHECK_THROWS_WITH(dlperf::parse<E>("no-such-name"),
                    Catch::Contains(std::string(dlperf::enum_list<E>::kind)) &&
                        Catch::Contains(std::string(*names.begin())));
}
