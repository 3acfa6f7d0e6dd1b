#include "mpi_channel.h"

#include <mpi.h>

#include <cstdlib>
#include <limits>
#include <stdexcept>

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
  if (active_) MPI_Finalize();
}

struct MpiChannel::Outgoing {
  std::vector<uint8_t> bytes;
  MPI_Request request = MPI_REQUEST_NULL;
};

MpiChannel::MpiChannel(MpiRuntime& runtime) : rank_(runtime.rank()), size_(runtime.size()) {
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

}  // namespace konobi
