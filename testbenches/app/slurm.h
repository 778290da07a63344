// Slurm job arrays for `wormcast sweep --slurm` (docs/sweeps.md): the runs a
// sweep still has to do go to the cluster as one array, one task per run,
// through Slurm's own commands (sbatch, squeue) as a user would type them;
// the sweep waits for the array to leave the queue, then collects the
// results the tasks wrote to the shared file system.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace wormcast::tb {

struct SlurmArray {
  std::string name;                // the job's name (--job-name)
  std::filesystem::path dir;       // where the task list, the batch script and the tasks' logs go
  std::vector<std::string> tasks;  // one shell command line per task
  std::string sbatch_args;         // more sbatch options, as written on a command line (--partition=x ...)
  double poll_seconds = 2;         // how often squeue is asked
};

// A Slurm command that failed (not found, refused the job, lost the
// controller), with the command and what it printed.
class SlurmError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes the task list and batch script into a.dir, submits the array with
// sbatch and returns its job id. Throws SlurmError.
std::string submit_slurm_array(const SlurmArray& a);

// Waits until job `id` has no task left in the queue, reporting on `err`
// how many are left whenever that changes. Throws SlurmError.
void wait_for_slurm_job(const std::string& id, const SlurmArray& a, std::ostream& err);

}  // namespace wormcast::tb
