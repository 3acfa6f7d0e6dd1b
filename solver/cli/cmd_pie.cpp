// konobi pie: the pie rule on the solved boards, read from results/: the
// winning and losing openings, White's swap decision for each, the share of
// losing openings, the openings that took the most work, the verdict; as
// text, JSON, and an SVG opening map.
#include <filesystem>
#include <iostream>

#include "command.h"
#include "solver/io/atomic_file.h"
#include "solver/io/json.h"
#include "solver/research/pie.h"

namespace konobi {

namespace fs = std::filesystem;

int cmd_pie(const Args& args) {
  po::options_description opts("pie options");
  int size = 0;
  bool all = false, json = false;
  std::string dir, svg;
  uint64_t remoteness_nodes = 0;
  // clang-format off
  opts.add_options()
    ("size,n", po::value<int>(&size), "board size, 3 to 8: reads RESULTS/konobi-NxN.json")
    ("all", po::bool_switch(&all), "every results/konobi-NxN.json present")
    ("results", po::value<std::string>(&dir)->default_value("results"), "the results folder")
    ("remoteness-nodes", po::value<uint64_t>(&remoteness_nodes)->default_value(kPieRemotenessNodes),
     "alpha-beta node budget per symmetry class for the remoteness of each opening (0: skip)")
    ("svg", po::value<std::string>(&svg),
     "write the opening map as SVG to this file (with --all: a folder, one opening-map-NxN.svg per size)")
    ("json", po::bool_switch(&json), "print JSON");
  // clang-format on
  po::variables_map vm;
  if (parse_command_line("pie", "--size N | --all [--results DIR] [--svg FILE] [--json]", args, opts, vm))
    return 0;
  if (all == (vm.count("size") > 0)) throw UsageError("give either --size N or --all");
  if (!all && (size < kPieMinSize || size > kPieMaxSize))
    throw UsageError("--size " + std::to_string(size) +
                     " is out of range: results files hold boards from 3x3 to 8x8");
  std::vector<int> sizes = all ? results_sizes(dir) : std::vector<int>{size};
  if (sizes.empty()) throw std::runtime_error("no results file konobi-NxN.json (N from 3 to 8) in " + dir);

  std::vector<PieReport> reports;
  for (int n : sizes) reports.push_back(load_pie_report(dir, n, remoteness_nodes));

  if (!svg.empty()) {
    for (const PieReport& r : reports) {
      std::string path = svg;
      if (all) {
        fs::create_directories(svg);
        path = (fs::path(svg) / opening_map_file(r.size)).string();
      }
      write_file_atomically(path, render_svg(opening_map_svg(r)));
    }
  }
  if (json) {
    Json sizes = Json::array();
    for (const PieReport& r : reports) sizes.push_back(pie_json(r));
    std::cout << json_text(Json{{"schema", "konobi-pie/1"}, {"sizes", std::move(sizes)}});
  } else {
    for (size_t i = 0; i < reports.size(); ++i) std::cout << (i ? "\n" : "") << pie_text(reports[i]);
  }
  return 0;
}

}  // namespace konobi
