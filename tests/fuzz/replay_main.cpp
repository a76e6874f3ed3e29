// Replays inputs through a fuzz target without libFuzzer, so the ordinary (g++) test build checks the corpus:
//   fuzz_X_replay PATH...        each file, or each file under a folder, is one input
//   fuzz_X_replay --lines FILE   each line of FILE is one input (the shape corpus is one file)
// A broken invariant aborts, as under libFuzzer; otherwise prints how many inputs ran.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {
size_t run(const std::string& input) {
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
  return 1;
}

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "%s: cannot be read\n", p.c_str());
    std::exit(2);
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

int main(int argc, char** argv) {
  size_t inputs = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--lines" && i + 1 < argc) {
      std::istringstream lines(read_all(argv[++i]));
      // Every selector byte in front of every line, so each parser sees each line.
      for (std::string line; std::getline(lines, line);) {
        for (char selector = 0; selector < 4; ++selector) inputs += run(std::string(1, selector) + line);
      }
    } else if (std::filesystem::is_directory(arg)) {
      std::vector<std::filesystem::path> files;
      for (const auto& e : std::filesystem::recursive_directory_iterator(arg)) {
        if (e.is_regular_file()) files.push_back(e.path());
      }
      for (const auto& f : files) inputs += run(read_all(f));
    } else {
      inputs += run(read_all(arg));
    }
  }
  if (inputs == 0) {
    std::fprintf(stderr, "no inputs: give files, folders or --lines FILE\n");
    return 2;
  }
  std::printf("%zu inputs replayed, no invariant broken\n", inputs);
  return 0;
}
