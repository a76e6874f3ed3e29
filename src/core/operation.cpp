#include "core/operation.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace gemmtune {

std::string Layout::name() const { return std::string(trans_a ? "t" : "n") + (trans_b ? "t" : "n"); }

Layout parse_layout(std::string_view text, const std::string& what) {
  if (text.size() == 2 && (text[0] == 'n' || text[0] == 't') && (text[1] == 'n' || text[1] == 't')) {
    return Layout{text[0] == 't', text[1] == 't'};
  }
  throw usage_error(what, std::string(text), "unknown layout (expected nn, nt, tn or tt: op(A) then op(B))");
}

std::vector<Layout> parse_layout_list(std::string_view text, const std::string& what) {
  std::vector<Layout> out;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    Layout l = parse_layout(
        text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start), what);
    if (std::find(out.begin(), out.end(), l) == out.end()) out.push_back(l);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string_view activation_name(Activation a) {
  switch (a) {
    case Activation::none:
      return "none";
    case Activation::relu:
      return "relu";
    case Activation::gelu_erf:
      return "gelu-erf";
    case Activation::gelu_tanh:
      return "gelu-tanh";
  }
  return "?";
}

Activation parse_activation(std::string_view text, const std::string& what) {
  for (Activation a : {Activation::none, Activation::relu, Activation::gelu_erf, Activation::gelu_tanh}) {
    if (text == activation_name(a)) return a;
  }
  throw usage_error(what, std::string(text), "unknown activation (expected none, relu, gelu-erf or gelu-tanh)");
}

std::string_view mode_name(Mode m) { return m == Mode::fast ? "fast" : "deterministic"; }

Mode parse_mode(std::string_view text, const std::string& what) {
  if (text == "fast") return Mode::fast;
  if (text == "deterministic") return Mode::deterministic;
  throw usage_error(what, std::string(text), "unknown mode (expected fast or deterministic)");
}

std::string Epilogue::name() const {
  if (!bias && activation == Activation::none) return "none";
  std::string s = bias ? "bias" : "";
  if (activation != Activation::none) s += (s.empty() ? "" : "+") + std::string(activation_name(activation));
  return s;
}

}  // namespace gemmtune
