"""Writes a tiny llama-architecture GGUF model for the real llama.cpp server in the tests.

    .venv/bin/python -m scripts.peers.tiny_llama_gguf OUT.gguf   (or: python scripts/peers/tiny_llama_gguf.py OUT.gguf)

No model can be downloaded here, so one is made: one layer whose attention and feed-forward
weights are zero, so every position's hidden state is its token's embedding, whose first
dimension is a constant; the output layer reads only that dimension, so each token's logit is a
fixed score. Greedy decoding (temperature 0) under the grammar llama.cpp builds from the request's
JSON schema then picks, at each step, the best-scored token the grammar allows: strings close at
once, enums and booleans come out valid, whitespace is never chosen, and the end of text comes as
soon as the object is complete. The answer is deterministic and takes milliseconds. The tokenizer
is SentencePiece-style: the special tokens, printable ASCII, the word separator and byte
fallbacks for everything else. The chat template keeps text parts and drops image parts (a text
model cannot see them).
"""
import sys

import numpy as np
import gguf


def write(path):
    writer = gguf.GGUFWriter(path, "llama")
    specials = ["<unk>", "<s>", "</s>"]
    characters = [chr(code) for code in range(0x21, 0x7F)] + ["\u2581"]
    tokens = specials + characters + [f"<0x{byte:02X}>" for byte in range(256)]
    # SentencePiece token types: 2 unknown, 3 control, 1 normal, 6 byte.
    types = [2, 3, 3] + [1] * len(characters) + [6] * 256
    embedding, feed_forward, heads, layers = 32, 64, 2, 1
    writer.add_context_length(4096)
    writer.add_embedding_length(embedding)
    writer.add_feed_forward_length(feed_forward)
    writer.add_block_count(layers)
    writer.add_head_count(heads)
    writer.add_head_count_kv(heads)
    writer.add_rope_dimension_count(embedding // heads)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_file_type(0)
    writer.add_tokenizer_model("llama")
    writer.add_token_list(tokens)
    writer.add_token_scores([0.0] * len(tokens))
    writer.add_token_types(types)
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(2)
    writer.add_unk_token_id(0)
    writer.add_chat_template(
        "{% for m in messages %}{{ m['role'] }}: "
        "{% if m['content'] is string %}{{ m['content'] }}{% else %}{% for p in m['content'] %}"
        "{% if p['type'] == 'text' %}{{ p['text'] }}{% endif %}{% endfor %}{% endif %}\n{% endfor %}assistant: ")
    vocabulary = len(tokens)
    embeddings = np.zeros((vocabulary, embedding), np.float32)
    embeddings[:, 0] = 10.0
    embeddings += np.random.default_rng(1).normal(0, 0.01, embeddings.shape).astype(np.float32)
    writer.add_tensor("token_embd.weight", embeddings)
    writer.add_tensor("output_norm.weight", np.eye(1, embedding, 0, dtype=np.float32)[0])
    scores = np.zeros(vocabulary, np.float32)
    for rank, character in enumerate('"}]{:,eaoinrstldcumpbfgyhvwkxjqz_0123456789'):
        scores[len(specials) + characters.index(character)] = 100.0 - rank
    scores[2] = 200.0  # the end of text, wherever the grammar allows it
    output = np.zeros((vocabulary, embedding), np.float32)
    output[:, 0] = scores
    writer.add_tensor("output.weight", output)
    for layer in range(layers):
        prefix = f"blk.{layer}."
        writer.add_tensor(prefix + "attn_norm.weight", np.ones(embedding, np.float32))
        for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
            writer.add_tensor(prefix + name + ".weight", np.zeros((embedding, embedding), np.float32))
        writer.add_tensor(prefix + "ffn_norm.weight", np.ones(embedding, np.float32))
        writer.add_tensor(prefix + "ffn_gate.weight", np.zeros((feed_forward, embedding), np.float32))
        writer.add_tensor(prefix + "ffn_up.weight", np.zeros((feed_forward, embedding), np.float32))
        writer.add_tensor(prefix + "ffn_down.weight", np.zeros((embedding, feed_forward), np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


if __name__ == "__main__":
    write(sys.argv[1])
