// Pipeline builds in worker processes. Drivers that build one pipeline at a time per process (the H200's built
// 0.5-0.8 s each, in turn) keep the device waiting while the host compiles; workers (this executable's hidden
// `build-worker` command, each with its own device) build the next candidates' pipelines at once into pipeline
// caches of their own and send the data back, which the parent merges into its device's cache: its own build of
// the same pipeline is then a cache hit. On CPU devices (lavapipe), whose code is generated at the first dispatch,
// a worker also dispatches one workgroup, which fills the driver's disk cache for the parent's first run.
//
// Everything here is an optimisation: a request a worker did not build (no worker, a worker that died or hung,
// a build that failed there) is simply built by the parent as before, which then owns the outcome.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "vk/device.hpp"
#include "vk/resources.hpp"

namespace gemmtune {

/// One pipeline as ComputePipeline takes it, and what one dispatch of it needs on a CPU device.
struct BuildRequest {
  std::span<const uint32_t> spirv;
  std::vector<vk::SpecConstant> constants;
  uint32_t push_bytes = 0;
  uint32_t required_subgroup_size = 0;
  std::vector<uint64_t> binding_bytes;  ///< one per storage-buffer binding: the sizes of the parent's buffers
  std::vector<uint8_t> push;            ///< the push constants of the pass, for the one-workgroup dispatch
  bool dispatch = false;                ///< also run workgroup (0, 0, 0) once (CPU devices)
};

class BuildWorkers {
 public:
  using Ticket = uint64_t;
  struct Stats {
    size_t submitted = 0, built = 0, failed = 0, taken_back = 0;
    double worker_build_ms = 0.0;  ///< summed over the builds workers reported
  };

  /// Up to `count` workers of `executable` (argv[0] of the worker is "build-worker") for `device`, started by
  /// start() or the first submit. `device_selector` picks the same device in the child (its UUID).
  BuildWorkers(const vk::Device& device, unsigned count, std::string executable, std::string device_selector);
  ~BuildWorkers();  ///< ends the workers (SIGKILL after their sockets close: nothing of theirs is needed)
  BuildWorkers(const BuildWorkers&) = delete;
  BuildWorkers& operator=(const BuildWorkers&) = delete;

  /// Starts the workers now (a tuner does before its first reference: on the H200 fifteen workers' devices took
  /// seconds to come up). Requests are sent to workers still coming up too, which read them once their device is up;
  /// until the parent has read a worker's ready message, take() builds that worker's requests itself.
  void start();
  /// Workers that can take builds: as many as asked for until they start, then those still alive.
  unsigned count() const;
  /// Queues a build; sends what idle workers can take. Never throws for a worker's trouble.
  Ticket submit(const BuildRequest& request);
  /// The parent is about to build `ticket`'s pipeline: waits for it only where a worker is building it now (then
  /// merges what it sent: true); a request still queued or behind another is taken back (false), so the
  /// parent never waits longer than building it itself would take. Merges every other reply that has arrived.
  bool take(Ticket ticket);
  /// The parent builds `ticket`'s pipeline itself without waiting (its own cache holds it): a queued request is taken
  /// back, one in flight is merged when its reply comes, and nobody waits for it.
  void drop(Ticket ticket);
  /// Where a ticket's build stands after the replies read so far (wait_for_reply reads them): its reply is here
  /// (`replied`), a worker whose device is up has it (`under_way`: built now or next), or nobody is building it yet.
  enum class Progress { replied, under_way, not_started };
  Progress progress(Ticket ticket) const;
  /// Moves these queued tickets (no worker has them yet) to the front of the queue, in this order: the
  /// search's next configs, whose order changes as it learns, go before requests handed over earlier.
  void prioritize(const std::vector<Ticket>& tickets);
  /// Waits up to `timeout_ms` for a worker's reply (any), sending what is queued meanwhile.
  void wait_for_reply(int timeout_ms) { pump(timeout_ms); }
  /// Ends the workers and drops every request not yet taken (CPU devices: no worker compiles while the finals are
  /// timed); the next submit starts them again.
  void stop_all();
  const Stats& stats() const { return stats_; }

 private:
  struct Worker {
    pid_t pid = -1;
    int fd = -1;
    bool ready = false;            ///< its device is up: the first in flight is being built
    std::string out, in;           ///< bytes not yet sent, bytes received not yet parsed
    std::deque<Ticket> in_flight;  ///< sent, in the order the worker builds them
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  };
  /// Ends a worker; its requests in flight are not built (`why` is warned about once, unless empty).
  void stop(Worker& w, const std::string& why);
  /// Sends queued requests to workers with room, then reads what arrived, waiting up to `timeout_ms`.
  void pump(int timeout_ms);
  void handle_reply(Worker& w, uint32_t kind, Ticket ticket, double ms, const std::string& payload);
  bool alive() const;

  const vk::Device& device_;
  unsigned wanted_;
  std::string executable_, selector_;
  bool started_ = false, warned_ = false;
  std::vector<Worker> workers_;
  Ticket next_ticket_ = 1;
  std::deque<std::pair<Ticket, std::string>> queue_;  ///< encoded requests no worker has yet
  std::map<Ticket, bool> done_;                       ///< replies not yet taken: built there or not
  std::set<Ticket> abandoned_;                        ///< taken back while in flight: nobody waits for them
  Stats stats_;
};

/// The worker's side (`gemmtune build-worker --device SELECTOR`): builds requests read from `fd` until it closes.
/// Returns the process's exit code.
int serve_build_requests(const std::string& device_selector, int fd);

}  // namespace gemmtune
