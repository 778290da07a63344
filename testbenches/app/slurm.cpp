#include "testbenches/app/slurm.h"

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "testbenches/app/sweep.h"

namespace wormcast::tb {

namespace fs = std::filesystem;

namespace {

struct Output {
  int status = 0;   // the shell's exit status (127: command not found)
  std::string text; // stdout and stderr
};

Output run_shell(const std::string& command) {
  Output o;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (!p) throw SlurmError("cannot start a shell for: " + command);
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) o.text.append(buf, n);
  const int w = pclose(p);
  o.status = WIFEXITED(w) ? WEXITSTATUS(w) : 128 + (WIFSIGNALED(w) ? WTERMSIG(w) : 0);
  return o;
}

// What a failed Slurm command said, and what to do when it is not there.
SlurmError failure(const std::string& what, const std::string& command, const Output& o) {
  std::string msg = what + " (" + command + ", exit status " + std::to_string(o.status) + ")";
  if (o.status == 127)
    msg += ": Slurm's commands are not installed here (Debian: apt-get install slurm-client) or not on PATH";
  std::string text = o.text;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  if (!text.empty()) msg += ":\n" + text;
  return SlurmError(msg);
}

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream f(p);
  f << text;
  f.close();
  if (!f) throw SlurmError("cannot write " + p.string());
}

}  // namespace

std::string submit_slurm_array(const SlurmArray& a) {
  if (a.tasks.empty()) throw std::logic_error("submit_slurm_array: no tasks");
  std::error_code ec;
  fs::create_directories(a.dir, ec);
  const fs::path dir = fs::absolute(a.dir).lexically_normal();
  std::string list;
  for (const std::string& t : a.tasks) list += t + "\n";
  write_file(dir / "tasks.txt", list);
  // Task i runs line i + 1 of the list.
  write_file(dir / "task.sh", "#!/bin/sh\n# one task of wormcast's job array '" + a.name + "': line " +
                                  "SLURM_ARRAY_TASK_ID + 1 of tasks.txt\n" +
                                  "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " +
                                  shell_quote((dir / "tasks.txt").string()) + ")\nexec sh -c \"$line\"\n");
  const std::string command = "sbatch --parsable --job-name=" + shell_quote(a.name) + " --array=0-" +
                              std::to_string(a.tasks.size() - 1) + " --output=" +
                              shell_quote((dir / "task_%a.out").string()) +
                              (a.sbatch_args.empty() ? "" : " " + a.sbatch_args) + " " +
                              shell_quote((dir / "task.sh").string());
  const Output o = run_shell(command);
  if (o.status != 0) throw failure("Slurm refused the job array", command, o);
  // --parsable: "id" or "id;cluster"
  std::string id = o.text.substr(0, o.text.find_first_of(";\n"));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw failure("sbatch answered no job id", command, o);
  return id;
}

void wait_for_slurm_job(const std::string& id, const SlurmArray& a, std::ostream& err) {
  const std::string command = "squeue --noheader --array --jobs=" + id + " --format=%i";
  std::size_t last = SIZE_MAX;
  for (;;) {
    const Output o = run_shell(command);
    // A job the controller has already forgotten (MinJobAge) has finished.
    if (o.status != 0 && o.text.find("Invalid job id") != std::string::npos) return;
    if (o.status != 0) throw failure("cannot follow Slurm job " + id, command, o);
    std::size_t left = 0;
    for (char c : o.text) left += c == '\n';
    if (left == 0) return;
    if (left != last)
      err << "Slurm job " << id << " (" << a.name << "): " << left << " of " << a.tasks.size()
          << " tasks pending or running\n" << std::flush;
    last = left;
    std::this_thread::sleep_for(std::chrono::duration<double>(a.poll_seconds));
  }
}

}  // namespace wormcast::tb
