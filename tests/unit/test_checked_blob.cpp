// The framing of stored blobs (core/checked_blob.hpp): a frame gives its data back; anything cut, grown, damaged,
// of another version or not a frame is refused with the reason.
#include <gtest/gtest.h>

#include "core/checked_blob.hpp"

namespace gemmtune {

TEST(CheckedBlob, AFrameGivesItsDataBackAndAnyDamageIsRefusedWithTheReason) {
  const std::string data("pipeline cache data\0with a zero", 31);
  const std::string frame = frame_blob(data);
  std::string why;
  ASSERT_EQ(unframe_blob(frame, why), data);
  EXPECT_EQ(unframe_blob(frame_blob(""), why), std::string());

  auto refused = [&](const std::string& file, const std::string& fragment) {
    std::string reason;
    EXPECT_FALSE(unframe_blob(file, reason).has_value()) << fragment;
    EXPECT_NE(reason.find(fragment), std::string::npos) << reason;
  };
  for (size_t at : {size_t(32), frame.size() - 1}) {
    std::string flipped = frame;
    flipped[at] ^= 0x10;
    refused(flipped, "checksum mismatch");
  }
  std::string checksum = frame;
  checksum[24] ^= 1;
  refused(checksum, "checksum mismatch");
  refused(frame.substr(0, frame.size() - 1), "cut short");
  refused(frame + "x", "appended");
  refused(frame.substr(0, 20), "no GTPCACHE header");
  refused("GTPCACHF" + frame.substr(8), "no GTPCACHE header");
  std::string version = frame;
  version[8] = 2;
  refused(version, "format version 2, expected 1");
}

}  // namespace gemmtune
