#include "diagram.h"

namespace konobi {

std::string render_board(int n, const std::vector<int>& cells, const std::vector<char>& marks) {
  std::string letters = "     ";
  for (int c = 0; c < n; ++c) letters += std::string(1, char('a' + c)) + " ";
  letters += "\n";
  std::string rule = "    +" + std::string(2 * n + 1, '=') + "+\n";
  std::string s = letters + rule;
  for (int r = n - 1; r >= 0; --r) {
    std::string num = std::to_string(r + 1);
    s += std::string(3 - num.size(), ' ') + num + " | ";
    for (int c = 0; c < n; ++c) {
      const int p = r * n + c;
      char ch = cells[p] < 0 ? '.' : cells[p] == 0 ? 'B' : 'W';
      if (!marks.empty() && marks[p]) ch = marks[p];
      s += ch;
      s += ' ';
    }
    s += "| " + num + "\n";
  }
  return s + rule + letters;
}

}  // namespace konobi
