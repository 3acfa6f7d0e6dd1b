#include "knowledge.h"

#include <filesystem>
#include <stdexcept>

#include "solver/io/atomic_file.h"
#include "solver/io/results.h"
#include "solver/research/pie.h"

namespace konobi {

namespace {

std::string board_name(int size) { return std::to_string(size) + "x" + std::to_string(size); }

}  // namespace

const Json& Knowledge::openings(bool gonnect, int size, const std::string& ko, const std::string& edges) {
  const auto key = std::make_tuple(gonnect, size, gonnect ? ko : "", gonnect ? edges : "");
  if (const auto it = openings_.find(key); it != openings_.end()) return it->second;
  const std::string game = gonnect ? "gonnect" : "konobi";
  const std::string path = (std::filesystem::path(dir_) / (game + "-" + board_name(size) + ".json")).string();
  std::error_code ec;
  if (dir_.empty() || !std::filesystem::exists(path, ec))
    throw std::runtime_error("no shipped results for " + game + " on " + board_name(size));
  const Results r = Results::from_json(read_file(path), path);
  if (r.game != game || r.size != size)
    throw std::runtime_error(path + " does not hold " + game + " " + board_name(size));
  if (gonnect && (r.ko_rule != ko || r.edges != edges))
    throw std::runtime_error("the shipped Gonnect " + board_name(size) + " results are for ko " + r.ko_rule +
                             " and edges " + r.edges + ", not ko " + ko + " and edges " + edges);
  const PieReport pie = make_pie_report(r, path, 0);
  Json j = {{"game", game}, {"size", size}};
  j["ko"] = gonnect ? Json(ko) : Json(nullptr);
  j["edges"] = gonnect ? Json(edges) : Json(nullptr);
  Json& list = j["openings"] = Json::array();
  for (const OpeningResult& o : r.openings)
    list.push_back({{"point", o.point},
                    {"value", o.solved ? Json(o.winner == "black" ? "win" : "loss") : Json(nullptr)},
                    {"class", o.representative}});
  const std::string empty = r.empty_board_winner();
  j["empty_board"] = empty.empty() ? Json(nullptr) : Json(empty);
  j["pie"] = {{"complete", pie.complete()},
              {"black_wins", pie.black_wins()},
              {"white_wins", pie.white_wins()},
              {"losing_share", pie.losing_share()},
              {"verdict", pie.verdict()}};
  return openings_[key] = std::move(j);
}

const PuzzleSet& Knowledge::puzzles(int size) {
  if (const auto it = puzzles_.find(size); it != puzzles_.end()) return *it->second;
  const std::string path = (std::filesystem::path(dir_) / ("puzzles-" + board_name(size) + ".json")).string();
  std::error_code ec;
  if (dir_.empty() || !std::filesystem::exists(path, ec))
    throw std::runtime_error("no shipped puzzles for " + board_name(size));
  auto set = std::make_unique<PuzzleSet>(PuzzleSet::from_json(read_file(path), path));
  if (set->size != size) throw std::runtime_error(path + " does not hold " + board_name(size) + " puzzles");
  return *(puzzles_[size] = std::move(set));
}

}  // namespace konobi
