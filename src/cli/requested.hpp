// What a tune, list or bench command asked for: its problems, request by request, and its kernel families
// restricted to the search space.
#pragma once

#include <vector>

#include "cli/options.hpp"
#include "kernels/kernel_def.hpp"

namespace gemmtune {

/// Every problem of the request, shape by shape, then layout, then dtype.
std::vector<GemmProblem> problems_of(const TuneCommandOptions& o, const ShapeRequest& request);
/// The requested variants, restricted to the search space (--space FILE, or the built-in default).
std::vector<KernelFamily> families_of(const TuneCommandOptions& o);
std::vector<const KernelFamily*> pointers(const std::vector<KernelFamily>& families);
/// A --kernels glob that names no config of the swept variants in any requested dtype is a mistake, not an
/// empty sweep (other tools then silently run nothing): one line and exit 2, before any Vulkan work.
void check_kernels_glob(const TuneCommandOptions& o, const std::vector<KernelFamily>& families);

}  // namespace gemmtune
