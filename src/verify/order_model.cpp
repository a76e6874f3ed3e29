#include "verify/order_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gemmtune {

namespace {
float fma_as(bool fused, float a, float b, float c) { return fused ? std::fma(a, b, c) : a * b + c; }

/// op(A)(z, i, k) and op(B)(k, j) of the host operands.
struct OpView {
  const GemmProblem& p;
  const HostOperands& o;
  float a(uint64_t z, uint64_t i, uint64_t k) const {
    return o.a[p.layout.trans_a ? o.layout.a.index(z, k, i) : o.layout.a.index(z, i, k)];
  }
  float b(uint64_t z, uint64_t k, uint64_t j) const {
    return o.b[p.layout.trans_b ? o.layout.b.index(z, j, k) : o.layout.b.index(z, k, j)];
  }
  float product(bool fused, uint64_t z, uint64_t i, uint64_t k, uint64_t j, float acc) const {
    return fma_as(fused, a(z, i, k), b(z, k, j), acc);
  }
};

/// One fma chain over [kb, ke), increasing k (decreasing when reversed).
float chain_sum(const OpView& op, const OrderVariant& v, uint64_t z, uint64_t i, uint64_t j, uint64_t kb, uint64_t ke) {
  float sum = 0.0f;
  for (uint64_t q = kb; q < ke; ++q) sum = op.product(v.fused, z, i, v.parts_reversed ? ke - 1 - (q - kb) : q, j, sum);
  return sum;
}

/// Chains of 16 from zero, two a block, four blocks a group, the groups in increasing k. A range's last step is
/// zero-filled, so its last chain, block and group end where the range does.
float tiled_sum(const OpView& op, const OrderVariant& v, uint64_t z, uint64_t i, uint64_t j, uint64_t kb, uint64_t ke) {
  std::vector<float> groups;
  float block = 0.0f, group = 0.0f;
  uint64_t chains = 0;
  for (uint64_t k0 = kb; k0 < ke; k0 += 16) {
    float chain = 0.0f;
    for (uint64_t k = k0; k < std::min(k0 + 16, ke); ++k) chain = op.product(v.fused, z, i, k, j, chain);
    const bool second_half = (chains & 1) == 1;
    block = second_half ? block + chain : chain;
    ++chains;
    if (second_half) {
      const uint64_t blocks = chains / 2;
      group = (blocks - 1) % 4 == 0 ? block : group + block;
      if (blocks % 4 == 0) groups.push_back(group);
    }
  }
  const uint64_t blocks = chains / 2;
  if ((chains & 1) == 1) {
    groups.push_back(blocks % 4 == 0 ? block : group + block);
  } else if (blocks % 4 != 0) {
    groups.push_back(group);
  }
  if (v.parts_reversed) std::reverse(groups.begin(), groups.end());
  float total = 0.0f;
  for (float g : groups) total = total + g;
  return total;
}

/// `slices` chains, chain s over k = kb + s, kb + s + slices, ...; the chains added in slice order.
float slices_sum(const OpView& op, const OrderVariant& v, uint32_t slices, uint64_t z, uint64_t i, uint64_t j,
                 uint64_t kb, uint64_t ke) {
  float sum = 0.0f;
  for (uint32_t u = 0; u < slices; ++u) {
    const uint32_t s = v.parts_reversed ? slices - 1 - u : u;
    float acc = 0.0f;
    for (uint64_t k = kb + s; k < ke; k += slices) acc = op.product(v.fused, z, i, k, j, acc);
    sum = u == 0 ? acc : sum + acc;
  }
  return sum;
}

/// Row-dot: `wg` invocations over the 16-byte chunks of row n's aligned body inside [kb, ke), then its head and
/// tail elements; an xor butterfly within each subgroup, the subgroups in order.
float row_chunks_sum(const OpView& op, const OrderVariant& v, uint32_t wg, uint32_t subgroup, uint64_t z, uint64_t i,
                     uint64_t n, uint64_t kb, uint64_t ke) {
  const uint64_t width = 16 / dtype_bytes(op.p.dtype);  // elements a chunk
  const uint64_t shift = op.o.layout.b.index(z, n, 0) % width;
  const uint64_t head = shift == 0 ? 0 : width - shift;  // chunk c starts at k = head + c * width
  const uint64_t first = kb <= head ? 0 : (kb - head + width - 1) / width;
  const uint64_t chunks = ke > head ? (ke - head) / width : 0;
  const uint64_t body_begin = chunks > first ? head + first * width : std::clamp(head, kb, ke);
  const uint64_t body_end = chunks > first ? head + chunks * width : body_begin;
  std::vector<float> lanes(wg);
  for (uint32_t t = 0; t < wg; ++t) {
    float acc = 0.0f;
    for (uint64_t c = first + t; c < chunks; c += wg)
      for (uint64_t e = 0; e < width; ++e) acc = op.product(v.fused, z, i, head + c * width + e, n, acc);
    for (auto [from, to] : {std::pair{kb, body_begin}, std::pair{body_end, ke}})
      for (uint64_t k = from + t; k < to; k += wg) acc = op.product(v.fused, z, i, k, n, acc);
    lanes[t] = acc;
  }
  // Every lane of a subgroup ends with the same bits (a + b = b + a).
  for (uint32_t d = 1; d < subgroup; d <<= 1) {
    std::vector<float> next(wg);
    for (uint32_t t = 0; t < wg; ++t) next[t] = lanes[t] + lanes[t ^ d];
    lanes = std::move(next);
  }
  float sum = 0.0f;
  const uint32_t groups = std::max(wg / subgroup, 1u);
  for (uint32_t g = 0; g < groups; ++g) {
    const uint32_t h = v.parts_reversed ? groups - 1 - g : g;
    sum = g == 0 ? lanes[h * subgroup] : sum + lanes[h * subgroup];
  }
  return sum;
}

float range_sum(const OpView& op, const SummationOrder& order, const OrderVariant& v, uint64_t z, uint64_t i,
                uint64_t j, uint64_t kb, uint64_t ke) {
  switch (order.kind) {
    case SummationOrder::Kind::chain:
      return chain_sum(op, v, z, i, j, kb, ke);
    case SummationOrder::Kind::tiled_groups:
      return tiled_sum(op, v, z, i, j, kb, ke);
    case SummationOrder::Kind::slices:
      return slices_sum(op, v, order.parts, z, i, j, kb, ke);
    case SummationOrder::Kind::row_chunks: {
      const uint32_t subgroup = v.subgroup                      ? v.subgroup
                                : order.subgroup_widths.empty() ? 1u
                                                                : order.subgroup_widths.front();
      return row_chunks_sum(op, v, order.parts, std::min(subgroup, order.parts), z, i, j, kb, ke);
    }
  }
  return 0.0f;
}

bool same_bits(float x, float y) { return std::memcmp(&x, &y, sizeof(float)) == 0; }
}  // namespace

float modelled_element(const GemmProblem& p, const HostOperands& o, const SummationOrder& order, const OrderVariant& v,
                       uint64_t index) {
  const Shape& s = p.shape;
  const uint64_t z = index / (s.m * s.n), i = index / s.n % s.m, j = index % s.n;
  const OpView op{p, o};
  const uint64_t range = order.splits > 1 ? order.range_terms : s.k;
  float total = 0.0f;
  for (uint32_t q = 0; q < order.splits; ++q) {
    const uint64_t r = v.ranges_reversed ? order.splits - 1 - q : q;
    const uint64_t kb = std::min(s.k, r * range), ke = std::min(s.k, kb + range);
    const float part = range_sum(op, order, v, z, i, j, kb, ke);
    total = q == 0 ? part : total + part;
  }
  float value = float(p.alpha) * total;
  if (p.beta != 0.0) value = fma_as(v.fused, float(p.beta), o.c0[o.layout.c.index(z, i, j)], value);
  return value;
}

std::vector<float> modelled_result(const GemmProblem& p, const HostOperands& o, const SummationOrder& order,
                                   const OrderVariant& v) {
  std::vector<float> result(p.shape.batch * p.shape.m * p.shape.n);
  for (uint64_t index = 0; index < result.size(); ++index) result[index] = modelled_element(p, o, order, v, index);
  return result;
}

OrderCheck check_summation_order(const GemmProblem& p, const HostOperands& o, const SummationOrder& order,
                                 std::span<const float> got, uint64_t max_samples) {
  // Samples spread evenly over the result, each moved within its stretch so rows and columns vary; the last
  // element (the edge tiles' corner) always.
  std::vector<uint64_t> samples;
  const uint64_t total = got.size();
  if (total <= max_samples) {
    for (uint64_t index = 0; index < total; ++index) samples.push_back(index);
  } else {
    const uint64_t stretch = total / max_samples;
    for (uint64_t s = 0; s + 1 < max_samples; ++s) samples.push_back(s * stretch + (s * 7919) % stretch);
    samples.push_back(total - 1);
  }
  std::vector<uint32_t> widths = order.subgroup_widths;
  if (widths.empty()) widths.push_back(0);
  OrderCheck best;
  best.sampled = samples.size();
  best.differing = UINT64_MAX;
  for (bool fused : {true, false})
    for (uint32_t width : widths) {
      const OrderVariant v{fused, width};
      OrderCheck check;
      check.sampled = samples.size();
      for (uint64_t index : samples) {
        const float expected = modelled_element(p, o, order, v, index);
        if (same_bits(expected, got[index])) continue;
        if (check.differing++ == 0) {
          check.first_index = index;
          check.got = got[index];
          check.expected = expected;
        }
        if (check.differing > best.differing) break;  // already worse than another variant
      }
      check.passed = check.differing == 0;
      if (check.passed) return check;
      if (check.differing < best.differing) best = check;
    }
  best.passed = false;
  return best;
}

}  // namespace gemmtune
