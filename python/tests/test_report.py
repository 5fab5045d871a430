"""What the package's functions return (dlperf/report.py): the tool's JSON as a Report (a dict)
or a ReportList (a list), equal to it, with fields as attributes, a repr that reads back, and a
notebook table whose figures are the tool's own text for them."""

import pytest

import dlperf
from dlperf import _dlperf


def test_a_report_is_the_tools_json_with_its_fields_as_attributes(cli):
    line = "model --preset llama2_7b --gpu h100_sxm --infer --prompt 512 --generate 128 --json"
    r = dlperf.model(preset="llama2_7b", gpu="h100_sxm", infer=True, prompt=512, generate=128)
    assert isinstance(r, dlperf.Report) and isinstance(r, dict)
    assert r == cli.json(line)
    assert r.step_time_s == r["step_time_s"]
    assert "step_time_s" in dir(r)
    with pytest.raises(AttributeError, match="no field 'step_time'"):
        r.step_time
    # The repr reads back as the same report.
    assert eval(repr(r), {"Report": dlperf.Report}) == r


def test_a_reports_table_writes_each_figure_as_the_tool_does():
    r = dlperf.model(preset="llama2_7b", gpu="h100_sxm", train=True, batch=4, seq=2048)
    table = r._repr_html_()
    assert table.startswith("<table")
    # Seconds as a duration, a fraction as a percentage, a rate as a number: the tool's words.
    assert f"<th>step_time_s</th><td>{_dlperf.format_value('s', r.step_time_s)}</td>" in table
    assert f"<th>mfu</th><td>{_dlperf.format_value('%', r.mfu)}</td>" in table
    assert f"<th>tokens_per_s</th><td>{_dlperf.format_value('', r.tokens_per_s)}</td>" in table
    # A count exactly; a large plain number with an SI prefix (Llama 2 7B: 6.74 B parameters).
    assert f"<th>seq</th><td>{r.seq}</td>" in table
    assert "<th>parameters</th><td>6.74 G</td>" in table
    assert _dlperf.format_value("s", 1.5e-3) == "1.50 ms"
    assert _dlperf.format_value("B", 16106127360.0) == "15.0 GiB"
    # A nested field by its size, a missing one as a dash.
    assert f"<th>memory</th><td>{len(r.memory)} fields</td>" in table
    assert "<th>power_limit</th><td>-</td>" in table


def test_a_ranking_is_a_list_of_reports_shown_as_one_table(cli):
    ranked = dlperf.rank(task="infer16")
    assert isinstance(ranked, dlperf.ReportList) and isinstance(ranked, list)
    assert ranked == cli.json("rank --task infer16 --json")
    assert all(isinstance(e, dlperf.Report) for e in ranked)
    assert ranked[0].id == ranked[0]["id"]
    table = ranked._repr_html_()
    shown = min(len(ranked), dlperf.report.LIST_ROWS)
    assert table.count("<tr>") == shown + 1  # the header, then a row per entry shown
    for entry in ranked[:shown]:
        assert f"<td>{entry.id}</td>" in table
    if len(ranked) > shown:
        assert f"{len(ranked) - shown} more" in table
    assert repr(ranked).startswith("ReportList([Report({")


def test_a_refused_request_still_raises_the_tools_error():
    with pytest.raises(dlperf.Error, match="--batch '0'"):
        dlperf.model(preset="gpt2", gpu="rtx_4090", batch=0)
