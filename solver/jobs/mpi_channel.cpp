#include "mpi_channel.h"

#include <mpi.h>

#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <thread>

#include "job_codec.h"

namespace konobi {

namespace {

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw std::runtime_error(std::string("MPI: ") + what + " failed: " + std::string(text, size_t(len)));
}

}  // namespace

bool MpiRuntime::launched_by_mpirun() {
  // Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE; PMIx launchers (Open MPI
  // 4's own, Slurm's srun --mpi=pmix) set PMIX_RANK; PMI-1/2 ones PMI_RANK.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(name)) return true;
  return false;
}

MpiRuntime::MpiRuntime() {
  thread_ = std::this_thread::get_id();
  if (!launched_by_mpirun()) return;
  int provided = 0;
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  active_ = true;
  if (provided < MPI_THREAD_FUNNELED) {
    MPI_Finalize();
    active_ = false;
    throw std::runtime_error("MPI: this MPI library does not offer MPI_THREAD_FUNNELED");
  }
  // Errors come back as codes (then exceptions with their text) rather
  // than aborting every rank from inside the library.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
}

void MpiRuntime::abort(int status) {
  if (active_) MPI_Abort(MPI_COMM_WORLD, status);
  std::exit(status);
}

MpiRuntime::~MpiRuntime() {
  if (!active_) return;
  if (size_ > 1 && !released_) {
    try {
      MpiChannel ch(*this);
      if (rank_ == 0) {
        ch.release_workers(std::chrono::seconds(10));
      } else {
        ch.send(0, int(MessageKind::Error),
                encode_error("rank " + std::to_string(rank_) + " ended before its worker loop ran"));
        ch.say_goodbye();
      }
    } catch (...) {  // MPI failing now: mpirun ends what is left
    }
  }
  MPI_Finalize();
}

struct MpiChannel::Outgoing {
  std::vector<uint8_t> bytes;
  MPI_Request request = MPI_REQUEST_NULL;
};

MpiChannel::MpiChannel(MpiRuntime& runtime)
    : runtime_(&runtime), rank_(runtime.rank()), size_(runtime.size()) {
  if (!runtime.active()) throw std::logic_error("MpiChannel: MPI is not initialised (not started by mpirun)");
  thread_ = runtime.thread_;
  check_thread();
}

MpiChannel::~MpiChannel() {
  try {
    flush();
  } catch (...) {  // a peer gone: nothing more to deliver
  }
}

void MpiChannel::check_thread() const {
  if (std::this_thread::get_id() != thread_)
    throw std::logic_error("MpiChannel used from a thread other than the one that initialised MPI");
}

void MpiChannel::send(int dest, int tag, std::vector<uint8_t> bytes) {
  check_thread();
  if (dest < 0 || dest >= size_ || dest == rank_) throw std::logic_error("MpiChannel::send to a bad rank");
  if (bytes.size() > size_t(std::numeric_limits<int>::max()))
    throw std::runtime_error("MPI: a message of " + std::to_string(bytes.size()) + " bytes is too long");
  reap();
  auto out = std::make_unique<Outgoing>();
  out->bytes = std::move(bytes);
  check(MPI_Isend(out->bytes.data(), int(out->bytes.size()), MPI_BYTE, dest, tag, MPI_COMM_WORLD,
                  &out->request),
        "MPI_Isend");
  outbox_.push_back(std::move(out));
}

std::optional<MpiMessage> MpiChannel::try_receive() {
  check_thread();
  reap();
  int flag = 0;
  MPI_Status status;
  check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status), "MPI_Iprobe");
  if (!flag) return std::nullopt;
  int count = 0;
  check(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
  MpiMessage m;
  m.source = status.MPI_SOURCE;
  m.tag = status.MPI_TAG;
  m.bytes.resize(size_t(count));
  // The probed message exactly (its source and tag): messages between two
  // ranks are matched in the order they were sent.
  check(MPI_Recv(m.bytes.data(), count, MPI_BYTE, m.source, m.tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
        "MPI_Recv");
  return m;
}

void MpiChannel::reap() {
  size_t kept = 0;
  for (size_t i = 0; i < outbox_.size(); ++i) {
    int done = 0;
    check(MPI_Test(&outbox_[i]->request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (!done) outbox_[kept++] = std::move(outbox_[i]);
  }
  outbox_.resize(kept);
}

void MpiChannel::flush() {
  check_thread();
  for (auto& out : outbox_) check(MPI_Wait(&out->request, MPI_STATUS_IGNORE), "MPI_Wait");
  outbox_.clear();
}

bool MpiChannel::release_workers(std::chrono::milliseconds timeout) {
  check_thread();
  if (rank_ != 0) throw std::logic_error("MpiChannel::release_workers on a worker rank");
  if (runtime_->released_) return true;
  runtime_->released_ = true;
  for (int r = 1; r < size_; ++r) send(r, int(MessageKind::Control), encode_control(Control::Shutdown));
  std::vector<bool> gone(size_t(size_), false);
  int left = size_ - 1;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (left > 0 && std::chrono::steady_clock::now() < deadline) {
    // Whatever else they send now (reports of stopped jobs, errors) no
    // longer matters: only the goodbyes are waited for.
    std::optional<MpiMessage> m = try_receive();
    if (!m) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    if (m->tag == int(MessageKind::Bye) && m->source > 0 && m->source < size_ && !gone[size_t(m->source)]) {
      gone[size_t(m->source)] = true;
      --left;
    }
  }
  flush();
  return left == 0;
}

void MpiChannel::say_goodbye() {
  check_thread();
  if (rank_ == 0) throw std::logic_error("MpiChannel::say_goodbye on rank 0");
  if (runtime_->released_) return;
  runtime_->released_ = true;
  send(0, int(MessageKind::Bye), encode_bye());
  flush();
}

}  // namespace konobi
