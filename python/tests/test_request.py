"""Request classes (dlperf/request.py): built with their function's keywords and checked then,
estimated to what the function returns, shown as the call and the tool's command line, and a
model request as a sweep's base."""

import re

import pytest
from conftest import optional

import dlperf
import dlperf.request


def test_each_request_takes_its_functions_keywords_and_estimates_to_its_result(cli):
    q = dlperf.ModelRequest(preset="llama3_8b", gpu="h100_sxm", mode="infer", batch=8,
                            prompt=512, generate=128)
    assert q.batch == 8 and q.stack is None  # given, and a keyword left out
    line = "model --preset llama3_8b --gpu h100_sxm --infer --batch 8 --prompt 512 --generate 128"
    assert q.command_line() == "dlperf " + line
    assert q.estimate() == cli.json(line + " --json")
    g = dlperf.GemmRequest(gpu="h100_sxm", m=4096, n=4096, k=4096, dtype="fp8_e4m3")
    assert g.estimate() == cli.json(
        "gemm --gpu h100_sxm --m 4096 --n 4096 --k 4096 --dtype fp8_e4m3 --json")
    r = dlperf.AdviseRequest(rent=True, preset="llama3_8b", mode="infer", generate=128)
    assert r.command_line() == "dlperf advise --rent --preset llama3_8b --infer --generate 128"
    assert r.estimate() == dlperf.advise(rent=True, preset="llama3_8b", mode="infer",
                                         generate=128)


def test_the_keywords_are_the_functions_own_and_the_runs():
    # A function with **run takes the run's keywords (RunOptions); one without takes none.
    assert {"preset", "layers", "serve", "rate"} <= dlperf.ModelRequest.accepted_keywords()
    assert set(dlperf.RunOptions.__annotations__) <= dlperf.RankRequest.accepted_keywords()
    assert "batch" not in dlperf.TcoRequest.accepted_keywords()
    for cls in dlperf.request.REQUESTS:
        assert cls.command in dlperf.__all__, cls  # each stands for one of the functions


def test_an_unknown_keyword_is_refused_when_the_request_is_built_naming_the_valid_ones():
    with pytest.raises(dlperf.Error, match=r"ModelRequest: unknown keyword 'batchsize'; did you "
                                           r"mean 'batch'\? \(valid: .*\bpreset\b"):
        dlperf.ModelRequest(preset="gpt2", batchsize=8)
    with pytest.raises(dlperf.Error, match="TcoRequest: unknown keyword 'batch'"):
        dlperf.TcoRequest(gpu="rtx_4090", batch=8)
    # A bad value is the tool's to name, when the request is estimated.
    bad = dlperf.ModelRequest(preset="gpt2", gpu="rtx_4090", batch=0)
    with pytest.raises(dlperf.Error, match=r"--batch '0' must be in \[1, 16777216\]"):
        bad.estimate()


def test_a_request_does_not_change_and_replace_gives_another():
    q = dlperf.ModelRequest(preset="gpt2", gpu="rtx_4090", batch=8)
    with pytest.raises(AttributeError, match="use replace"):
        q.batch = 16
    r = q.replace(batch=16, gpu=None)
    assert (q.batch, q.gpu) == (8, "rtx_4090")
    assert r == dlperf.ModelRequest(preset="gpt2", batch=16) and r != q
    assert q.keywords() == {"preset": "gpt2", "gpu": "rtx_4090", "batch": 8}
    with pytest.raises(AttributeError, match="ModelRequest has no keyword 'tflops'"):
        q.tflops


def test_a_request_shows_the_call_it_stands_for():
    q = dlperf.ModelRequest(preset="gpt2", gpu="rtx_4090", train=True, lora_targets=["q", "v"])
    assert repr(q) == ("ModelRequest(preset='gpt2', gpu='rtx_4090', train=True, "
                       "lora_targets=['q', 'v'])")
    assert eval(repr(q), {"ModelRequest": dlperf.ModelRequest}) == q
    page = q._repr_html_()
    assert "<th>preset</th><td>&#x27;gpt2&#x27;</td>" in page
    assert "dlperf model --preset gpt2 --gpu rtx_4090 --train --lora-targets q,v" in page


def test_a_model_request_is_a_sweeps_base():
    q = dlperf.ModelRequest(preset="llama3_8b", gpu="h100_sxm", mode="infer", generate=128)
    rows = dlperf.sweep(q, batch=[1, 8], gpu=["rtx_4090", "h100_sxm"], frame=False)
    assert [(r["gpu"], r["batch"]) for r in rows] == [
        ("rtx_4090", 1), ("rtx_4090", 8), ("h100_sxm", 1), ("h100_sxm", 8)]
    for r in rows:
        one = q.replace(gpu=r["gpu"], batch=r["batch"]).estimate()
        assert r["decode_tokens_per_s"] == one["decode_tokens_per_s"]
    with pytest.raises(dlperf.Error, match="must be a ModelRequest, not GemmRequest"):
        dlperf.sweep(dlperf.GemmRequest(gpu="h100_sxm", m=1, n=1, k=1))


def _request_stubs():
    """python/tools/request_stubs.py, the writer of the request classes' stub."""
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[1] / "tools" / "request_stubs.py"
    spec = importlib.util.spec_from_file_location("request_stubs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_request_stub_is_the_functions_keywords_and_ships_with_the_package():
    # request.pyi is what python/tools/request_stubs.py writes from the functions' signatures
    # today: a keyword added to a function without rerunning the script fails here.
    import pathlib

    stubs = _request_stubs()
    assert stubs.STUB.read_text() == stubs.stub_text()
    for cls in dlperf.request.REQUESTS:
        assert set(stubs.keywords_of(cls)) == cls.accepted_keywords(), cls.__name__
    installed = pathlib.Path(dlperf.__file__).parent / "request.pyi"
    assert installed.read_text() == stubs.STUB.read_text()


def test_a_type_checker_reads_the_request_keywords(tmp_path):
    # mypy, through the stub, knows each request's keywords and their types: a misspelt keyword
    # is an error before anything runs, and a keyword's value has its function's type.
    mypy = optional("mypy.api")
    source = tmp_path / "use.py"
    source.write_text(
        "import dlperf\n"
        "q = dlperf.ModelRequest(preset='llama3_8b', gpu='h100_sxm', batch=8)\n"
        "reveal_type(q.replace(batch=32))\n"
        "reveal_type(q.gpu)\n"
        "dlperf.GemmRequest(m=1, n=2, k=3, gpu='h100_sxm', batchh=2)\n")
    out, _, status = mypy.run([str(source), "--no-incremental", "--cache-dir", str(tmp_path)])
    assert status == 1, out
    assert 'Revealed type is "dlperf.request.ModelRequest"' in out
    # (mypy spells an optional string by version: "Union[builtins.str, None]", "str | None")
    assert re.search(r'Revealed type is "(Union\[builtins\.str, None\]|(builtins\.)?str \| None)"',
                     out), out
    assert 'Unexpected keyword argument "batchh" for "GemmRequest"' in out
    assert "Found 1 error" in out, out
