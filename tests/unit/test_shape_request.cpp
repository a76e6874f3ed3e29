// Ranges in --shape, shapes files and the built-in suites' format.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "core/error.hpp"
#include "core/shape_request.hpp"

using namespace gemmtune;

namespace {
std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return e.what();
  }
  ADD_FAILURE() << "accepted";
  return "";
}
}  // namespace

TEST(ShapeRanges, AdditiveAndGeometricRanges) {
  EXPECT_EQ(parse_dimension_values("64", "--shape", "M"), (std::vector<uint64_t>{64}));
  EXPECT_EQ(parse_dimension_values("64:256:64", "--shape", "M"), (std::vector<uint64_t>{64, 128, 192, 256}));
  EXPECT_EQ(parse_dimension_values("64:250:64", "--shape", "M"), (std::vector<uint64_t>{64, 128, 192}));
  EXPECT_EQ(parse_dimension_values("1:4096:*4", "--shape", "M"),
            (std::vector<uint64_t>{1, 4, 16, 64, 256, 1024, 4096}));
  EXPECT_EQ(parse_dimension_values("7:7:1", "--shape", "M"), (std::vector<uint64_t>{7}));
}

TEST(ShapeRanges, CartesianProductMSlowest) {
  const std::vector<Shape> s = expand_shape_pattern("1:2:1x8:16:*2x32");
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0], (Shape{1, 8, 32, 1}));
  EXPECT_EQ(s[1], (Shape{1, 16, 32, 1}));
  EXPECT_EQ(s[2], (Shape{2, 8, 32, 1}));
  EXPECT_EQ(s[3], (Shape{2, 16, 32, 1}));
  EXPECT_EQ(expand_shape_pattern("4x4x4x1:3:1").back(), (Shape{4, 4, 4, 3}));
  EXPECT_EQ(expand_shape_pattern("5x6x7"), (std::vector<Shape>{Shape{5, 6, 7, 1}}));  // no range: parse_shape
}

TEST(ShapeRanges, RequestsDropDuplicatesAcrossItems) {
  const std::vector<ShapeRequest> r = parse_shape_requests("8:16:8x8x8,16x8x8,8x8x8");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1].shape, (Shape{16, 8, 8, 1}));
}

TEST(ShapeRanges, MalformedRangesAreOneLineUsageErrors) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"64:32:8x8x8", "M range ends (32) before it starts"},
      {"64:128x8x8", "a:b:step or a:b:*factor"},
      {"64:128:8:2x8x8", "a:b:step or a:b:*factor"},
      {"8x0:8:1x8", "N range start is 0"},
      {"8x8:16:0x8", "N range step is 0"},
      {"8x8:16:*1x8", "N range factor must be at least 2"},
      {"8x8:16:*x8", "N range factor is missing"},
      {"8x8x1:99999:1", "K range has more than 1024 values"},
      {"1:1000:1x1:1000:1x8", "expands to more than 10000 shapes"},
      {"8x8:a:1x8", "N range end 'a' is not a decimal number"},
      {"8x8:4294967296:1x8", "N range end exceeds 2147483647"},
      {"8x8", "expected MxNxK or MxNxKxB"},
      {"8:9:1x8", "expected MxNxK or MxNxKxB"},
  };
  for (const auto& [text, fragment] : cases) {
    const std::string message = refusal([&] { expand_shape_pattern(text); });
    EXPECT_NE(message.find("--shape: '" + text + "'"), std::string::npos) << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << text << ": " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos);
  }
}

TEST(ShapesFile, NamesDtypesLayoutsColdCommentsAndDuplicates) {
  const std::string text =
      "# a comment\n"
      "\n"
      "qkv   128x2304x768  f16 nt   # trailing comment\r\n"
      "128x768x768\n"
      "logits 1x51865x768 cold\n"
      "again  128x2304x768 f16 nt\n"  // the same problem under another name: dropped
      "\t sweep 64:128:64x64x64 bf16\n"
      "decode 4x4096x14336 f16:q4_0 nt\n"  // every dtype by name: weights in blocks, 8-bit integers
      "int 32x64x96 i8\n";
  const std::vector<ShapeRequest> r = parse_shapes_file(text, "s.txt");
  ASSERT_EQ(r.size(), 7u);
  EXPECT_EQ(r[5].dtype, DType::f16_q4_0);
  EXPECT_EQ(r[6].dtype, DType::i8);
  EXPECT_EQ(r[0].name, "qkv");
  EXPECT_EQ(r[0].shape, (Shape{128, 2304, 768, 1}));
  EXPECT_EQ(r[0].dtype, DType::f16);
  ASSERT_TRUE(r[0].layout.has_value());
  EXPECT_EQ(r[0].layout->name(), "nt");
  EXPECT_EQ(r[1].name, "");
  EXPECT_FALSE(r[1].dtype.has_value());
  EXPECT_TRUE(r[2].cold);
  EXPECT_EQ(r[3].name, "sweep");
  EXPECT_EQ(r[4].shape, (Shape{128, 64, 64, 1}));
  EXPECT_EQ(r[4].dtype, DType::bf16);
}

TEST(ShapesFile, BadLinesNameFileLineTokenAndReason) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"ok 8x8x8\nname\n", "s.txt:2: 'name': expected [name] MxNxK[xB] [dtype] [layout] [cold]"},
      {"8x8x8 f64\n", "s.txt:1: 'f64': unexpected here"},
      {"8x8x8 nn f16\n", "s.txt:1: 'f16': unexpected here"},
      {"8x8x8 cold f16\n", "s.txt:1: 'f16': unexpected here"},
      {"8x8x8 f16 f32\n", "s.txt:1: 'f32': unexpected here"},
      {"\n\n8x0x8\n", "s.txt:3: '8x0x8': N is 0"},
      {"a b 8x8x8\n", "s.txt:1: 'b': expected a decimal digit"},
      {"# nothing\n\n", "s.txt: '': no shapes in the file"},
      {"", "s.txt: '': no shapes in the file"},
  };
  for (const auto& [text, fragment] : cases) {
    const std::string message = refusal([&] { parse_shapes_file(text, "s.txt"); });
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  }
}

namespace gemmtune {
namespace {

TEST(ShapesFile, AByteOrderMarkIsNoPartOfTheFirstLine) {
  const std::vector<ShapeRequest> r = parse_shapes_file("\xEF\xBB\xBFq 8x16x32 f16 nt\n8x8x8\n", "s.txt");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].name, "q");
  EXPECT_EQ(r[0].shape, (Shape{8, 16, 32, 1}));
}

TEST(ShapesFile, ParsingIsLinear) {
  // 200 000 distinct lines and their 200 000 duplicates: a search of the list per line took minutes.
  std::string text;
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 1; i <= 200000; ++i) {
      const std::string n = std::to_string(i);  // appended piece by piece: GCC 12 misreads the + chain (-Wrestrict)
      text.append("p").append(n).append(" ").append(n).append("x8x8 nt\n");
    }
  }
  const auto start = std::chrono::steady_clock::now();
  const std::vector<ShapeRequest> r = parse_shapes_file(text, "big.txt");
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(r.size(), 200000u);
  EXPECT_EQ(r.back().name, "p200000");  // the first of each pair wins
  EXPECT_LT(s, 1.0);
}

}  // namespace
}  // namespace gemmtune
