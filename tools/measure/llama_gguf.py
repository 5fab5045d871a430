#!/usr/bin/env python3
"""Write a GGUF file with the shapes of a Llama model and random F16 weights, for timing
llama.cpp where no model can be downloaded (the lent GPU machine has no network).

Kernel times do not depend on the weights' values, only on their shapes and format, so
`llama-quantize` turns this file into the Q4_0 or Q4_K_M file that `llama-bench` then times as
it would the real model. The vocabulary is a placeholder of the model's size (SentencePiece
layout: unknown, BOS, EOS, the 256 byte tokens, then filler): llama-bench feeds token ids and
never tokenises text.

Needs numpy and llama.cpp's gguf-py on PYTHONPATH (gguf-py/ in llama.cpp's tree).

    python3 llama_gguf.py --preset llama2_7b out.gguf
"""

import argparse

import numpy as np
import gguf

# Shapes from the models' config.json files on Hugging Face (meta-llama/Llama-2-7b-hf,
# meta-llama/Llama-2-13b-hf, meta-llama/Meta-Llama-3-8B); docs/models.md lists the same presets.
# Llama 3's byte-level BPE vocabulary is laid out here as SentencePiece's, of its size: the
# shapes are what the kernels see.
PRESETS = {
    "llama2_7b": dict(vocab=32000, embd=4096, layers=32, heads=32, kv_heads=32, ff=11008,
                      ctx=4096, eps=1e-5),
    "llama2_13b": dict(vocab=32000, embd=5120, layers=40, heads=40, kv_heads=40, ff=13824,
                       ctx=4096, eps=1e-5),
    "llama3_8b": dict(vocab=128256, embd=4096, layers=32, heads=32, kv_heads=8, ff=14336,
                      ctx=8192, eps=1e-5),
}


def random_f16(rng, shape):
    """Uniformly random signs and mantissas at exponent 2^-7 (|w| in [0.0078, 0.0156)):
    finite values that keep activations bounded through many layers."""
    bits = rng.integers(0, 1 << 16, size=shape, dtype=np.uint16)
    return ((bits & np.uint16(0x83FF)) | np.uint16(0x2000)).view(np.float16)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--preset", choices=sorted(PRESETS), default="llama2_7b")
    p.add_argument("out")
    a = p.parse_args()
    c = PRESETS[a.preset]
    rng = np.random.default_rng(0)
    w = gguf.GGUFWriter(a.out, "llama")
    w.add_name(a.preset + " (random weights)")
    w.add_context_length(c["ctx"])
    w.add_embedding_length(c["embd"])
    w.add_block_count(c["layers"])
    w.add_feed_forward_length(c["ff"])
    w.add_head_count(c["heads"])
    w.add_head_count_kv(c["kv_heads"])
    w.add_rope_dimension_count(c["embd"] // c["heads"])
    w.add_layer_norm_rms_eps(c["eps"])
    w.add_file_type(gguf.LlamaFileType.MOSTLY_F16)

    tokens = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)]
    types = [gguf.TokenType.UNKNOWN, gguf.TokenType.CONTROL, gguf.TokenType.CONTROL]
    types += [gguf.TokenType.BYTE] * 256
    filler = c["vocab"] - len(tokens)
    tokens += [f"\u2581t{i}" for i in range(filler)]
    types += [gguf.TokenType.NORMAL] * filler
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_scores([0.0] * len(tokens))
    w.add_unk_token_id(0)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)

    e, f, v = c["embd"], c["ff"], c["vocab"]
    kv = e // c["heads"] * c["kv_heads"]
    # One array per shape, shared by every layer: the writer only reads them.
    square, kv_proj = random_f16(rng, (e, e)), random_f16(rng, (kv, e))
    up, down = random_f16(rng, (f, e)), random_f16(rng, (e, f))
    norm = np.ones(e, dtype=np.float32)
    w.add_tensor("token_embd.weight", random_f16(rng, (v, e)))
    for i in range(c["layers"]):
        b = f"blk.{i}."
        w.add_tensor(b + "attn_norm.weight", norm)
        w.add_tensor(b + "attn_q.weight", square)
        w.add_tensor(b + "attn_k.weight", kv_proj)
        w.add_tensor(b + "attn_v.weight", kv_proj)
        w.add_tensor(b + "attn_output.weight", square)
        w.add_tensor(b + "ffn_norm.weight", norm)
        w.add_tensor(b + "ffn_gate.weight", up)
        w.add_tensor(b + "ffn_up.weight", up)
        w.add_tensor(b + "ffn_down.weight", down)
    w.add_tensor("output_norm.weight", norm)
    w.add_tensor("output.weight", random_f16(rng, (v, e)))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    main()
