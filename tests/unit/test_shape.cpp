#include <gtest/gtest.h>

#include <set>

#include <string>

#include "core/error.hpp"
#include "core/problem.hpp"

using namespace gemmtune;

TEST(ShapeParser, AcceptsThreeAndFourDimensions) {
  EXPECT_EQ(parse_shape("1024x768x3072"), (Shape{1024, 768, 3072, 1}));
  EXPECT_EQ(parse_shape("1x1x1"), (Shape{1, 1, 1, 1}));
  EXPECT_EQ(parse_shape("5x6x7x8"), (Shape{5, 6, 7, 8}));
  EXPECT_EQ(parse_shape("2147483647x1x1").m, kMaxDimension);
}

TEST(ShapeParser, ListsSplitOnCommasAndDropDuplicates) {
  auto list = parse_shape_list("8x8x8,1x2x3,8x8x8");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[1], (Shape{1, 2, 3, 1}));
}

TEST(ShapeParser, ToStringRoundTrips) {
  EXPECT_EQ(parse_shape("17x33x65").to_string(), "17x33x65");
  EXPECT_EQ(parse_shape("17x33x65x4").to_string(), "17x33x65x4");
}

struct Malformed {
  std::string text;
  std::string reason_fragment;
};

void PrintTo(const Malformed& m, std::ostream* os) { *os << "'" << escaped(m.text) << "'"; }

class ShapeParserRejects : public ::testing::TestWithParam<Malformed> {};

TEST_P(ShapeParserRejects, WithUsageErrorNamingArgumentValueAndReason) {
  const Malformed& m = GetParam();
  try {
    parse_shape(m.text);
    FAIL() << "accepted '" << m.text << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    std::string msg = e.what();
    EXPECT_EQ(msg.rfind("--shape: '", 0), 0u) << msg;
    EXPECT_NE(msg.find(m.reason_fragment), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << "one line: " << msg;
    EXPECT_EQ(msg.find('\0'), std::string::npos) << "no NUL: " << msg;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, ShapeParserRejects,
    ::testing::Values(
        Malformed{"", "empty"}, Malformed{"5x5", "too few"}, Malformed{"5x5x5x5x5", "too many"},
        Malformed{"5x5x", "missing K"}, Malformed{"x5x5", "expected a decimal digit for M"},
        Malformed{"5X5X5", "expected 'x'"}, Malformed{"5.0x5x5", "expected 'x'"}, Malformed{"1e3x5x5", "expected 'x'"},
        Malformed{"+5x5x5", "digit for M"}, Malformed{"-1x5x5", "digit for M"}, Malformed{"0x5x5", "M is 0"},
        Malformed{"5x0x5", "N is 0"}, Malformed{"5x5x0", "K is 0"}, Malformed{"5x5x5x0", "batch is 0"},
        Malformed{" 5x5x5", "position 1"}, Malformed{"5x5x5 ", "position 6"}, Malformed{"5 x5x5", "expected 'x'"},
        Malformed{"\xef\xbc\x95x5x5", "byte 239"}, Malformed{std::string("5\0x5x5", 6), "byte 0"},
        Malformed{"2147483648x1x1", "exceeds"}, Malformed{"9223372036854775808x1x1", "exceeds"},
        Malformed{"99999999999999999999999999x1x1", "exceeds"}, Malformed{"5xx5x5", "digit for N"},
        Malformed{"5x5x5,", "found ','"}, Malformed{"0x0x0", "M is 0"}, Malformed{"ax5x5", "digit for M"}));

TEST(ShapeParser, ListRejectsEmptyItem) {
  EXPECT_THROW(parse_shape_list("8x8x8,,1x1x1"), Error);
  EXPECT_THROW(parse_shape_list("8x8x8,"), Error);
}

TEST(DTypeParser, AcceptsKnownNamesAndRejectsOthers) {
  auto list = parse_dtype_list("f16,bf16,f16");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0], DType::f16);
  EXPECT_EQ(list[1], DType::bf16);
  for (const char* bad : {"f64", "F32", "", "fp16", "f32 "}) {
    try {
      parse_dtype(bad);
      FAIL() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::usage);
      EXPECT_NE(std::string(e.what()).find("--dtype"), std::string::npos);
    }
  }
}

TEST(DType, BoundsAreTheDocumentedOnes) {
  EXPECT_EQ(dtype_error_bound(DType::f32), 1e-5);
  EXPECT_EQ(dtype_error_bound(DType::f16), 2e-3);
  EXPECT_EQ(dtype_error_bound(DType::bf16), 8e-3);
  for (DType d : {DType::i8, DType::u8, DType::u8i8}) EXPECT_EQ(dtype_error_bound(d), 0.0);
}

TEST(DType, IntegerTypesParseWithTheirSignednessAndSize) {
  EXPECT_EQ(parse_dtype_list("i8,u8,u8i8"), (std::vector<DType>{DType::i8, DType::u8, DType::u8i8}));
  EXPECT_TRUE(a_signed(DType::i8) && b_signed(DType::i8));
  EXPECT_FALSE(a_signed(DType::u8) || b_signed(DType::u8));
  EXPECT_TRUE(!a_signed(DType::u8i8) && b_signed(DType::u8i8));
  for (DType d : {DType::i8, DType::u8, DType::u8i8}) {
    EXPECT_TRUE(is_integer(d));
    EXPECT_EQ(dtype_bytes(d), 1u);
  }
  EXPECT_FALSE(is_integer(DType::bf16));
}

namespace {
/// Why resolve() refuses the problem (a usage Error's text), or "accepted".
std::string resolve_refusal(const GemmProblem& p) {
  try {
    resolve(p);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return std::string(e.what());
  }
  return "accepted";
}
}  // namespace

TEST(DType, IntegerProblemsRefuseFloatOptionsAndOutOfRangeZeroPoints) {
  auto refusal = [](auto change) {
    GemmProblem p;
    p.shape = {4, 4, 4, 1};
    p.dtype = DType::u8i8;
    change(p);
    return resolve_refusal(p);
  };
  EXPECT_EQ(refusal([](GemmProblem&) {}), "accepted");
  EXPECT_EQ(refusal([](GemmProblem& p) {
              p.zero_a = 255;
              p.zero_b = -128;
            }),
            "accepted");
  EXPECT_NE(refusal([](GemmProblem& p) { p.zero_a = 256; }).find("--zero-a: '256': outside A's range (0..255)"),
            std::string::npos);
  EXPECT_NE(refusal([](GemmProblem& p) { p.zero_b = 128; }).find("--zero-b: '128': outside B's range (-128..127)"),
            std::string::npos);
  EXPECT_NE(refusal([](GemmProblem& p) {
              p.dtype = DType::i8;
              p.zero_a = -129;
            }).find("--zero-a"),
            std::string::npos);
  EXPECT_NE(refusal([](GemmProblem& p) { p.beta = 1.0f; }).find("--beta"), std::string::npos);
  EXPECT_NE(refusal([](GemmProblem& p) { p.alpha = 2.0f; }).find("--alpha"), std::string::npos);
  EXPECT_NE(refusal([](GemmProblem& p) { p.epilogue.bias = true; }).find("--bias"), std::string::npos);
  EXPECT_NE(refusal([](GemmProblem& p) { p.epilogue.activation = Activation::relu; }).find("--activation: 'relu'"),
            std::string::npos);
  EXPECT_NE(refusal([](GemmProblem& p) {
              p.dtype = DType::f16;
              p.zero_b = 1;
            }).find("--zero-b: '1': zero points apply"),
            std::string::npos);
}

TEST(Operation, ResolvesPackedDefaultsForEveryLayout) {
  GemmProblem p;
  p.shape = {3, 4, 5, 2};
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      p.layout = {ta, tb};
      ResolvedGemm r = resolve(p);
      EXPECT_EQ(r.a.ld, ta ? 3u : 5u);
      EXPECT_EQ(r.b.ld, tb ? 5u : 4u);
      EXPECT_EQ(r.c.ld, 4u);
      EXPECT_EQ(r.a.extent, 2u * 15);
      EXPECT_EQ(r.c.stride, 12u);
    }
}

TEST(Operation, RefusesShortLeadingDimensionsAndOverlappingC) {
  GemmProblem p;
  p.shape = {3, 4, 5, 2};
  p.a.ld = 4;
  try {
    resolve(p);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_EQ(std::string(e.what()).rfind("--lda: '4': below the 5 columns of A", 0), 0u) << e.what();
  }
  p.a.ld.reset();
  p.c.batch_stride = 5;
  try {
    resolve(p);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--stride-c"), std::string::npos) << e.what();
  }
  p.c.batch_stride.reset();
  p.b.batch_stride = 0;  // shared B is fine
  EXPECT_EQ(resolve(p).b.extent, 20u);
  p.a.offset = UINT64_MAX - 3;
  EXPECT_THROW(resolve(p), Error);
}

TEST(Operation, ParsesLayoutsActivationsAndModes) {
  EXPECT_EQ(parse_layout_list("nt,tn,nt").size(), 2u);
  EXPECT_TRUE(parse_layout("tn").trans_a);
  EXPECT_THROW(parse_layout("nx"), Error);
  EXPECT_THROW(parse_layout("NN"), Error);
  EXPECT_EQ(parse_activation("gelu-tanh"), Activation::gelu_tanh);
  EXPECT_THROW(parse_activation("gelu"), Error);
  EXPECT_EQ(parse_mode("deterministic"), Mode::deterministic);
  EXPECT_THROW(parse_mode("slow"), Error);
  Epilogue e{true, 0, Activation::relu};
  EXPECT_EQ(e.name(), "bias+relu");
}

TEST(Durations, SecondsWithAnOptionalUnit) {
  EXPECT_EQ(gemmtune::parse_seconds("90", "--budget"), 90.0);
  EXPECT_EQ(gemmtune::parse_seconds("60s", "--budget"), 60.0);
  EXPECT_EQ(gemmtune::parse_seconds("2m", "--budget"), 120.0);
  EXPECT_EQ(gemmtune::parse_seconds("1.5h", "--budget"), 5400.0);
  EXPECT_EQ(gemmtune::parse_seconds("0", "--budget"), 0.0);
  for (const char* bad : {"", "-3", "1.5x", ".5", "5.", "1..2", "abc", "2 m", "1e3", "9999999999"}) {
    try {
      gemmtune::parse_seconds(bad, "--total-budget");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const gemmtune::Error& e) {
      EXPECT_EQ(e.code(), gemmtune::ExitCode::usage);
      EXPECT_NE(std::string(e.what()).find("--total-budget"), std::string::npos);
    }
  }
}

TEST(DType, QuantizedTypesNameTheirActivationsAndBlocksAndSizeBlocksWhole) {
  EXPECT_EQ(parse_dtype_list("f16:q4_0,f32:q8_0,f16q4"), (std::vector<DType>{DType::f16_q4_0, DType::f32_q8_0}));
  for (DType d : {DType::f16_q8_0, DType::f16_q4_0, DType::f32_q8_0, DType::f32_q4_0}) {
    EXPECT_TRUE(is_quantized(d));
    EXPECT_FALSE(is_integer(d));
    EXPECT_EQ(dtype_error_bound(d), 2e-3);  // f16's input bound, for both activation types
    EXPECT_EQ(parse_dtype(dtype_token(d)), d);
    EXPECT_EQ(dtype_token(d).find_first_of("_:"), std::string_view::npos);  // config names split on '_'
  }
  EXPECT_EQ(a_dtype(DType::f16_q4_0), DType::f16);
  EXPECT_EQ(a_dtype(DType::f32_q8_0), DType::f32);
  EXPECT_EQ(dtype_bytes(DType::f32_q4_0), 4u);
  EXPECT_EQ(operand_bytes(DType::f16_q8_0, true, 64), 68u);  // two blocks of 34 bytes
  EXPECT_EQ(operand_bytes(DType::f16_q4_0, true, 96), 56u);  // three of 18, padded to a word
  EXPECT_EQ(operand_bytes(DType::f16_q4_0, false, 3), 8u);   // A: f16 elements
  EXPECT_FALSE(is_quantized(DType::f16));
  EXPECT_THROW(parse_dtype("f16:q5_0"), Error);
}

TEST(DType, QuantizedProblemsRefuseWhatBreaksTheirBlocks) {
  auto refusal = [](auto change) {
    GemmProblem p;
    p.shape = {4, 8, 64, 1};
    p.dtype = DType::f16_q4_0;
    p.layout = Layout{false, true};
    change(p);
    return resolve_refusal(p);
  };
  EXPECT_EQ(refusal([](GemmProblem&) {}), "accepted");
  EXPECT_EQ(refusal([](GemmProblem& p) { p.layout = Layout{true, true}; }), "accepted");
  EXPECT_EQ(refusal([](GemmProblem& p) {
              p.b.ld = 96;
              p.b.offset = 32;
              p.shape.batch = 2;
              p.b.batch_stride = 0;
            }),
            "accepted");
  EXPECT_NE(refusal([](GemmProblem& p) {
              p.layout = Layout{false, false};
            }).find("--layout: 'nn': B in q4_0 blocks of 32 along k is stored N x K: layouts nt and tt"),
            std::string::npos);
  EXPECT_NE(refusal([](GemmProblem& p) { p.shape.k = 40; }).find("--shape: '4x8x40': "), std::string::npos);
  EXPECT_NE(refusal([](GemmProblem& p) { p.b.ld = 80; }).find("--ldb: '80'"), std::string::npos);
  EXPECT_NE(refusal([](GemmProblem& p) { p.b.offset = 16; }).find("--offset-b: '16'"), std::string::npos);
  EXPECT_NE(refusal([](GemmProblem& p) {
              p.shape.batch = 2;
              p.b.batch_stride = 100;
            }).find("--stride-b: '100'"),
            std::string::npos);
  EXPECT_NE(refusal([](GemmProblem& p) { p.zero_b = 1; }).find("--zero-b"), std::string::npos);
}

TEST(DType, EveryTypeHasItsOwnNameAndTokenAndParsesBack) {
  std::set<std::string_view> names, tokens;
  for (DType d : kAllDTypes) {
    EXPECT_TRUE(names.insert(dtype_name(d)).second) << dtype_name(d);
    EXPECT_TRUE(tokens.insert(dtype_token(d)).second) << dtype_token(d);
    EXPECT_EQ(parse_dtype(dtype_name(d)), d);
    EXPECT_EQ(parse_dtype(dtype_token(d)), d);
    EXPECT_EQ(a_dtype(a_dtype(d)), a_dtype(d));
  }
  EXPECT_EQ(names.size(), std::size(kAllDTypes));
}
