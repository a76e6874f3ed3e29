// gemmtune entry point: the only place that maps errors to exit codes.
#include <exception>
#include <iostream>

#include "cli/app.hpp"
#include "core/error.hpp"

int main(int argc, char** argv) {
  try {
    return gemmtune::run_cli(argc, argv);
  } catch (const gemmtune::Error& e) {
    std::cerr << "gemmtune: error: " << e.what() << "\n";
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    std::cerr << "gemmtune: internal error: " << e.what() << "\n";
    return static_cast<int>(gemmtune::ExitCode::device_fault);
  }
}
