#include "cli/requested.hpp"

#include <set>

#include "cli/named_config.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "kernels/registry.hpp"
#include "kernels/space_file.hpp"

namespace gemmtune {

std::vector<GemmProblem> problems_of(const TuneCommandOptions& o, const ShapeRequest& request) {
  // A shapes-file line's own dtype or layout replaces --dtype or --layout for that line.
  const std::vector<Layout> layouts = request.layout ? std::vector<Layout>{*request.layout} : o.layouts;
  const std::vector<DType> dtypes = request.dtype ? std::vector<DType>{*request.dtype} : o.dtypes;
  std::vector<GemmProblem> problems;
  for (const Layout& layout : layouts) {
    for (DType dtype : dtypes) {
      GemmProblem problem = o.operation;
      problem.shape = request.shape;
      problem.dtype = dtype;
      problem.layout = layout;
      problems.push_back(problem);
    }
  }
  return problems;
}

std::vector<KernelFamily> families_of(const TuneCommandOptions& o) {
  std::vector<const KernelFamily*> chosen;
  if (o.variants.empty()) chosen = kernel_families();
  for (const std::string& name : o.variants) chosen.push_back(find_family(name));
  if (o.native_only) std::erase_if(chosen, [](const KernelFamily* f) { return f->numerics != kNativeNumerics; });
  if (o.space.empty()) return apply_space(default_space_text(), "configs/spaces/default.json (built in)", chosen);
  return apply_space(read_file(o.space), o.space, chosen);
}

std::vector<const KernelFamily*> pointers(const std::vector<KernelFamily>& families) {
  std::vector<const KernelFamily*> out;
  for (const KernelFamily& f : families) out.push_back(&f);
  return out;
}

void check_kernels_glob(const TuneCommandOptions& o, const std::vector<KernelFamily>& families) {
  if (o.kernels.empty() || families.empty()) return;
  std::set<DType> dtypes;
  for (const ShapeRequest& shape : o.shapes) {
    for (const GemmProblem& p : problems_of(o, shape)) dtypes.insert(p.dtype);
  }
  std::string names;
  for (DType dtype : dtypes) {
    names += (names.empty() ? "" : ", ") + std::string(dtype_name(dtype));
    for (const KernelFamily& family : families) {
      for (const Config& c : family.all_configs()) {
        if (name_matches(o.kernels, family.config_name(c, dtype))) return;
      }
    }
  }
  const KernelFamily& first = families.front();
  throw usage_error("--kernels", o.kernels,
                    "matches no config of the variants swept in " + names + " (names look like " +
                        first.config_name(first.all_configs().front(), *dtypes.begin()) + ")");
}

}  // namespace gemmtune
