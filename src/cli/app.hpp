// The command line: parses arguments with CLI11 and runs the chosen command.
#pragma once

namespace gemmtune {

/// Parses and runs; returns the exit code. Throws gemmtune::Error for failures main() maps to exit codes.
int run_cli(int argc, char** argv);

}  // namespace gemmtune
