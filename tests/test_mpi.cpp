// The MPI workers' parts that need no mpirun: the message codec (round
// trips, and every short, long or malformed message refused with an
// exception rather than read past its end), the worker's collecting store,
// and the runtime staying out of MPI when no launcher started the process.
// The workers themselves run under mpirun in tests/mpi_pool_main.cpp.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <stdexcept>

#include "solver/jobs/job_codec.h"
#include "solver/jobs/mpi_channel.h"
#include "solver/jobs/proven_collector.h"
#include "solver/search/tt.h"

using namespace konobi;

namespace {

JobReport sample_report() {
  JobReport r;
  r.id = 0x123456789abcdefULL;
  r.outcome = JobOutcome::MoverWins;
  r.pn = 0;
  r.dn = kInf;
  r.best = 17;
  r.nodes = 987654321;
  r.seconds = 12.5;
  r.proven = {{0xdeadbeefcafef00dULL, true, 5, 30}, {42, false, -1, 0}};
  return r;
}

}  // namespace

TEST_CASE("jobs, reports and the other messages survive the codec", "[mpi]") {
  const Job job{77, 6, {3, kPass, 12, 0}, 2000000};
  const Job j = decode_job(encode_job(job));
  CHECK(j.id == 77);
  CHECK(j.opening == 6);
  CHECK(j.path == std::vector<Move>{3, kPass, 12, 0});
  CHECK(j.max_nodes == 2000000);
  CHECK(message_kind(encode_job(job)) == MessageKind::Job);
  CHECK(decode_job(encode_job(Job{1, 0, {}, 0})).path.empty());

  const WorkerReport wr = decode_report(encode_report(WorkerReport{sample_report(), 555}));
  const JobReport& r = wr.report;
  CHECK(wr.worker_nodes == 555);
  CHECK(r.id == 0x123456789abcdefULL);
  CHECK(r.outcome == JobOutcome::MoverWins);
  CHECK(r.pn == 0);
  CHECK(r.dn == kInf);
  CHECK(r.best == 17);
  CHECK(r.nodes == 987654321);
  CHECK(r.seconds == 12.5);
  REQUIRE(r.proven.size() == 2);
  CHECK(r.proven[0].key == 0xdeadbeefcafef00dULL);
  CHECK(r.proven[0].mover_wins);
  CHECK(r.proven[0].best == 5);
  CHECK(r.proven[0].work == 30);
  CHECK(r.proven[1].key == 42);
  CHECK(!r.proven[1].mover_wins);
  CHECK(r.proven[1].best == -1);

  JobReport open;
  open.id = 3;
  open.outcome = JobOutcome::Open;
  open.pn = 12, open.dn = 40;
  const JobReport o = decode_report(encode_report(WorkerReport{open, 0})).report;
  CHECK(o.outcome == JobOutcome::Open);
  CHECK(o.pn == 12);
  CHECK(o.dn == 40);
  CHECK(o.best == -1);
  CHECK(o.proven.empty());

  const Hello h = decode_hello(encode_hello(Hello{8, "konobi 6x6 symmetry"}));
  CHECK(h.slots == 8);
  CHECK(h.setup == "konobi 6x6 symmetry");
  CHECK(decode_progress(encode_progress(1ULL << 40)) == 1ULL << 40);
  CHECK(decode_control(encode_control(Control::StopAll)) == Control::StopAll);
  CHECK(decode_control(encode_control(Control::Shutdown)) == Control::Shutdown);
  CHECK(decode_error(encode_error("out of memory")) == "out of memory");
  CHECK_NOTHROW(decode_bye(encode_bye()));
  CHECK(message_kind(encode_bye()) == MessageKind::Bye);
}

TEST_CASE("every truncation of a message is refused, never read past its end", "[mpi]") {
  const std::vector<std::vector<uint8_t>> messages = {encode_job(Job{77, 6, {3, kPass, 12}, 2000000}),
                                                      encode_report(WorkerReport{sample_report(), 9}),
                                                      encode_hello(Hello{4, "konobi 5x5"}),
                                                      encode_progress(12),
                                                      encode_control(Control::StopAll),
                                                      encode_error("why"),
                                                      encode_bye()};
  for (const std::vector<uint8_t>& whole : messages) {
    const MessageKind kind = message_kind(whole);
    auto decode = [&](const std::vector<uint8_t>& b) {
      switch (kind) {
        case MessageKind::Job:
          decode_job(b);
          break;
        case MessageKind::Report:
          decode_report(b);
          break;
        case MessageKind::Hello:
          decode_hello(b);
          break;
        case MessageKind::Progress:
          decode_progress(b);
          break;
        case MessageKind::Control:
          decode_control(b);
          break;
        case MessageKind::Error:
          decode_error(b);
          break;
        case MessageKind::Bye:
          decode_bye(b);
          break;
      }
    };
    INFO("kind " << int(kind) << ", " << whole.size() << " bytes");
    CHECK_NOTHROW(decode(whole));
    for (size_t n = 0; n < whole.size(); ++n) {
      // A copy of exactly n bytes, so that ASan sees any read past it.
      const std::vector<uint8_t> cut(whole.begin(), whole.begin() + long(n));
      CHECK_THROWS_AS(decode(cut), std::runtime_error);
    }
    std::vector<uint8_t> longer = whole;
    longer.push_back(0);
    CHECK_THROWS_WITH(decode(longer), Catch::Contains("left over"));
  }
}

TEST_CASE("malformed messages are refused with what is wrong", "[mpi]") {
  std::vector<uint8_t> job = encode_job(Job{1, 6, {3}, 0});
  // The version, the kind, a message of another kind.
  std::vector<uint8_t> b = job;
  b[0] = kJobCodecVersion + 1;
  CHECK_THROWS_WITH(decode_job(b), Catch::Contains("version"));
  b = job;
  b[1] = 99;
  CHECK_THROWS_WITH(decode_job(b), Catch::Contains("unknown kind"));
  CHECK_THROWS_WITH(decode_report(job), Catch::Contains("another kind"));
  // Field offsets: version 0, kind 1, id 2..9, opening 10..13, path length
  // 14..17, the moves from 18.
  b = job;
  b[10] = 0xff, b[11] = 0xff, b[12] = 0xff, b[13] = 0x7f;
  CHECK_THROWS_WITH(decode_job(b), Catch::Contains("opening"));
  b = job;
  b[14] = 0xff, b[15] = 0xff, b[16] = 0xff, b[17] = 0xff;  // a path of 4 billion moves
  CHECK_THROWS_WITH(decode_job(b), Catch::Contains("path length"));
  b = job;
  b[14] = 2;  // two moves announced, one there: the fields after the path shift by 4, and the last is short
  CHECK_THROWS_WITH(decode_job(b), Catch::Contains("ends inside th_dn"));
  b[14] = 8;  // eight announced, room for seven
  CHECK_THROWS_WITH(decode_job(b), Catch::Contains("ends inside path length"));
  b = job;
  b[18] = 0xfe, b[19] = 0xff, b[20] = 0xff, b[21] = 0xff;  // move -2 (a swap has no place in a job)
  CHECK_THROWS_WITH(decode_job(b), Catch::Contains("not a point or a pass"));

  // Reports: offsets id 2..9, outcome 10, pn 11..14, dn 15..18, best 19..22,
  // nodes 23..30, seconds 31..38, worker nodes 39..46, proven count 47..50,
  // then 11 bytes per position (key, value, move, work).
  const std::vector<uint8_t> report = encode_report(WorkerReport{sample_report(), 0});
  b = report;
  b[10] = 7;
  CHECK_THROWS_WITH(decode_report(b), Catch::Contains("outcome"));
  b = report;
  b[10] = uint8_t(JobOutcome::MoverLoses);  // a loss with a win's numbers
  CHECK_THROWS_WITH(decode_report(b), Catch::Contains("numbers"));
  b = report;
  b[15] = 0xff, b[16] = 0xff, b[17] = 0xff, b[18] = 0xff;  // dn past infinity
  CHECK_THROWS_WITH(decode_report(b), Catch::Contains("dn"));
  b = report;
  b[38] = 0xff;  // seconds: a NaN
  b[37] = 0xff;
  CHECK_THROWS_WITH(decode_report(b), Catch::Contains("seconds"));
  b = report;
  b[47] = 3;  // three positions announced, two there
  CHECK_THROWS_WITH(decode_report(b), Catch::Contains("proven count"));
  b = report;
  b[51 + 8] = 2;  // a value that is neither win nor loss
  CHECK_THROWS_WITH(decode_report(b), Catch::Contains("proven value"));

  std::vector<uint8_t> hello = encode_hello(Hello{4, "x"});
  hello[2] = 0;  // no slots
  CHECK_THROWS_WITH(decode_hello(hello), Catch::Contains("slots"));
  CHECK_THROWS_WITH(decode_control({kJobCodecVersion, uint8_t(MessageKind::Control), 9}),
                    Catch::Contains("command"));
  CHECK_THROWS_AS(message_kind({}), std::runtime_error);
  CHECK_THROWS_AS(message_kind({kJobCodecVersion}), std::runtime_error);
}

TEST_CASE("a worker's collecting store buffers what is added and finds it", "[mpi]") {
  ProvenCollector c(8, 3);
  CHECK(!c.find(5));
  c.add({5, true, 2, 10});
  c.add({6, false, -1, 4});
  REQUIRE(c.find(5));
  CHECK(c.find(5)->mover_wins);
  CHECK(c.find(5)->best == 2);
  CHECK(!c.find(6)->mover_wins);
  CHECK(!c.find(13));  // 13 shares 5's slot but is not there
  c.add({13, true, 1, 8});
  CHECK(c.find(13));
  CHECK(!c.find(5));  // replaced: the table is bounded
  c.add({7, true, 0, 2});
  std::vector<ProvenPosition> sent = c.take();
  REQUIRE(sent.size() == 3);  // the fourth did not fit the buffer
  CHECK(sent[0].key == 5);
  CHECK(sent[2].key == 13);
  CHECK(c.dropped() == 1);
  CHECK(c.take().empty());  // sent once
  CHECK(c.find(7));         // still known here
  CHECK_THROWS_AS(ProvenCollector(0, 1), std::invalid_argument);
}

TEST_CASE("without mpirun the runtime leaves MPI alone", "[mpi]") {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"}) unsetenv(name);
  CHECK(!MpiRuntime::launched_by_mpirun());
  MpiRuntime mpi;
  CHECK(!mpi.active());
  CHECK(mpi.rank() == 0);
  CHECK(mpi.size() == 1);
  CHECK_THROWS_AS(MpiChannel(mpi), std::logic_error);
  setenv("PMIX_RANK", "0", 1);
  CHECK(MpiRuntime::launched_by_mpirun());
  unsetenv("PMIX_RANK");
}
