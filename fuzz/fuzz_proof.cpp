// Fuzz target: the Konobi proof checker (solver/verify/proof_checker.*),
// `konobi verify-proof` on a decompressed "konobi-proof 1" file. The checker
// never throws: a malformed file is a failed check, so any exception out of
// it is a finding too.
#include "fuzz_support.h"
#include "solver/verify/proof_checker.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;  // room for the shipped 3x3 and smaller 4x4 proofs
  const konobi::ProofCheck c = konobi::check_proof(konobi_fuzz::as_text(data, size));
  if (!c.ok && c.message.empty()) konobi_fuzz::finding("a failed check without a message");
  return 0;
}
