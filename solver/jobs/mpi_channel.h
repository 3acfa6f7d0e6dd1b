// The one place the program talks MPI (Open MPI): the runtime's lifetime and
// byte messages between ranks. Only mpi_channel.cpp includes mpi.h, so the
// rest of the tree compiles without it. MPI is initialised only when
// mpirun (or mpiexec, or a PMIx launcher such as srun) started the process,
// which it tells by the environment it sets: a plain `konobi solve` never
// touches MPI. The runtime asks for MPI_THREAD_FUNNELED: the thread that
// initialised MPI is the only one that calls it (the manager's thread on
// rank 0, the worker loop elsewhere; search threads never do).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace konobi {

class MpiRuntime {
 public:
  // Initialises MPI when launched_by_mpirun(); otherwise stays inactive
  // (rank 0 of 1). Throws std::runtime_error when MPI cannot be initialised
  // or does not offer MPI_THREAD_FUNNELED.
  MpiRuntime();
  // When it initialised MPI: lets the other ranks go if that was not done
  // (see below), then MPI_Finalize.
  ~MpiRuntime();
  MpiRuntime(const MpiRuntime&) = delete;
  MpiRuntime& operator=(const MpiRuntime&) = delete;

  // Whether this process's environment is that of an MPI launcher
  // (OMPI_COMM_WORLD_SIZE, PMIX_RANK or PMI_RANK is set).
  static bool launched_by_mpirun();

  bool active() const { return active_; }
  // Ends every rank at once (MPI_Abort) with this exit status: for a rank
  // that must leave without the goodbyes MpiPool::shutdown exchanges (a
  // worker left waiting for jobs would hold every rank's MPI_Finalize).
  [[noreturn]] void abort(int status);
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  bool active_ = false;
  bool released_ = false;  // rank 0: the workers were told to go; others: this rank said goodbye
  int rank_ = 0, size_ = 1;
  std::thread::id thread_;
  friend class MpiChannel;
};

// A message as it arrived: who sent it, its tag, its bytes.
struct MpiMessage {
  int source = -1;
  int tag = -1;
  std::vector<uint8_t> bytes;
};

// Byte messages between the ranks of MPI_COMM_WORLD. Sends do not block:
// each is handed to MPI with its buffer kept here until MPI is done with it,
// so that neither side's loop waits on the other's. Messages from one rank
// to another arrive in the order sent, whatever their tags. Every call must
// come from the thread that created the MpiRuntime (std::logic_error
// otherwise).
class MpiChannel {
 public:
  // Throws std::logic_error when the runtime is not active.
  explicit MpiChannel(MpiRuntime& runtime);
  // Waits for the sends still in flight to complete.
  ~MpiChannel();
  MpiChannel(const MpiChannel&) = delete;
  MpiChannel& operator=(const MpiChannel&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }

  void send(int dest, int tag, std::vector<uint8_t> bytes);
  // A message waiting from any rank with any tag, received; none when none
  // has arrived (MPI_Iprobe: it never blocks).
  std::optional<MpiMessage> try_receive();
  // Waits until every send so far has completed.
  void flush();

  // The end of a run, which every rank must reach, or the ranks still
  // waiting for messages would keep mpirun (and every rank's MPI_Finalize)
  // waiting for ever. On rank 0: sends SHUTDOWN to every other rank and
  // receives (dropping all else) until each has said goodbye, at most
  // `timeout`; true when all did. On the others: says goodbye, after
  // everything this rank sent. Each runs once per process; MpiPool and
  // run_mpi_worker call them, and the runtime's destructor calls them for a
  // rank that ends without (rank 0 refusing a lock before its pool exists,
  // a worker failing before its loop: it then tells rank 0 why first).
  bool release_workers(std::chrono::milliseconds timeout);
  void say_goodbye();
  // Sends still in flight.
  size_t pending() const { return outbox_.size(); }

 private:
  void check_thread() const;
  void reap();  // drops the sends MPI is done with

  struct Outgoing;
  MpiRuntime* runtime_;
  int rank_ = 0, size_ = 1;
  std::thread::id thread_;
  std::vector<std::unique_ptr<Outgoing>> outbox_;
};

}  // namespace konobi
