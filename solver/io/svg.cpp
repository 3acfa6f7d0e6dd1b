#include "svg.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace konobi {

std::string xml_escape(const std::string& text) {
  std::string s;
  for (char c : text) {
    switch (c) {
      case '&':
        s += "&amp;";
        break;
      case '<':
        s += "&lt;";
        break;
      case '>':
        s += "&gt;";
        break;
      case '"':
        s += "&quot;";
        break;
      case '\'':
        s += "&apos;";
        break;
      default:
        // Control characters are not allowed in XML 1.0 text.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') s += '?';
        else s += c;
    }
  }
  return s;
}

namespace {

constexpr int kCell = 40;   // distance between points
constexpr int kLabel = 26;  // room for the coordinates
constexpr int kBand = 10;   // thickness of an edge band
constexpr int kTitle = 30;  // room for the title line
constexpr int kNote = 18;   // one line of notes

// Where things go: the picture's size and the centre of each point.
struct Layout {
  int n, width, height;
  int bx, y0, side;  // the board area's top-left corner and side
  int cx(int c) const { return bx + c * kCell + kCell / 2; }
  int cy(int r) const { return y0 + (n - 1 - r) * kCell + kCell / 2; }  // row n on top
};

Layout layout(const SvgBoard& b) {
  const int n = b.n;
  const int top = b.title.empty() ? 0 : kTitle;
  const int x0 = kLabel + kBand, y0 = top + kLabel + kBand;  // corner of the board area
  const int side = n * kCell;
  // Wide enough for the title and the notes (about 7 and 9 pixels a character).
  size_t longest = 0;
  for (const std::string& line : b.notes) longest = std::max(longest, line.size());
  const int width = std::max({2 * x0 + side, 320, 16 + 7 * int(longest), 16 + 9 * int(b.title.size())});
  const int left = (width - (2 * x0 + side)) / 2;  // centres a small board under a wide title
  const int height = y0 + side + kBand + kLabel + int(b.notes.size()) * kNote + (b.notes.empty() ? 0 : 8);
  return {n, width, height, left + x0, y0, side};
}

void draw_header(std::ostream& s, const SvgBoard& b, const Layout& l) {
  s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << l.width << "\" height=\""
    << l.height << "\" viewBox=\"0 0 " << l.width << ' ' << l.height
    << "\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\">\n";
  s << "<title>"
    << xml_escape(b.title.empty() ? "Konobi " + std::to_string(l.n) + "x" + std::to_string(l.n) : b.title)
    << "</title>\n";
  s << "<rect x=\"0\" y=\"0\" width=\"" << l.width << "\" height=\"" << l.height << "\" fill=\"#ffffff\"/>\n";
  if (!b.title.empty())
    s << "<text x=\"" << l.width / 2
      << "\" y=\"20\" font-size=\"16\" text-anchor=\"middle\" fill=\"#000000\">" << xml_escape(b.title)
      << "</text>\n";
}

// Edges: Black owns the top and bottom, White the left and right.
void draw_edges(std::ostream& s, const Layout& l) {
  const int bx = l.bx, y0 = l.y0, side = l.side;
  s << "<g id=\"edges\">\n";
  s << "<rect x=\"" << bx << "\" y=\"" << y0 - kBand << "\" width=\"" << side << "\" height=\"" << kBand
    << "\" fill=\"#202020\"/>\n";
  s << "<rect x=\"" << bx << "\" y=\"" << y0 + side << "\" width=\"" << side << "\" height=\"" << kBand
    << "\" fill=\"#202020\"/>\n";
  s << "<rect x=\"" << bx - kBand << "\" y=\"" << y0 << "\" width=\"" << kBand << "\" height=\"" << side
    << "\" fill=\"#ffffff\" stroke=\"#606060\" stroke-width=\"1\"/>\n";
  s << "<rect x=\"" << bx + side << "\" y=\"" << y0 << "\" width=\"" << kBand << "\" height=\"" << side
    << "\" fill=\"#ffffff\" stroke=\"#606060\" stroke-width=\"1\"/>\n";
  s << "</g>\n";
}

// The board, its lines and the coordinates around it.
void draw_grid(std::ostream& s, const Layout& l) {
  const int n = l.n, bx = l.bx, y0 = l.y0, side = l.side;
  s << "<rect x=\"" << bx << "\" y=\"" << y0 << "\" width=\"" << side << "\" height=\"" << side
    << "\" fill=\"#e6c88c\"/>\n";
  s << "<path d=\"";
  for (int i = 0; i < n; ++i) {
    s << 'M' << l.cx(0) << ' ' << l.cy(i) << 'H' << l.cx(n - 1);
    s << 'M' << l.cx(i) << ' ' << l.cy(0) << 'V' << l.cy(n - 1);
  }
  s << "\" stroke=\"#6b5330\" stroke-width=\"1\" fill=\"none\"/>\n";

  s << "<g id=\"coordinates\" font-size=\"14\" fill=\"#000000\" text-anchor=\"middle\">\n";
  for (int c = 0; c < n; ++c) {
    const std::string letter(1, char('a' + c));
    s << "<text x=\"" << l.cx(c) << "\" y=\"" << y0 - kBand - 8 << "\">" << letter << "</text>\n";
    s << "<text x=\"" << l.cx(c) << "\" y=\"" << y0 + side + kBand + 18 << "\">" << letter << "</text>\n";
  }
  for (int r = 0; r < n; ++r) {
    s << "<text x=\"" << bx - kBand - kLabel / 2 << "\" y=\"" << l.cy(r) + 5 << "\">" << r + 1 << "</text>\n";
    s << "<text x=\"" << bx + side + kBand + kLabel / 2 << "\" y=\"" << l.cy(r) + 5 << "\">" << r + 1
      << "</text>\n";
  }
  s << "</g>\n";
}

// Per-point values: a tinted square under the stones.
void draw_values(std::ostream& s, const SvgBoard& b, const Layout& l) {
  const int n = l.n;
  s << "<g id=\"values\">\n";
  for (int p = 0; p < n * n; ++p) {
    const SvgValue& v = b.values[p];
    if (v.side == SvgValue::None) continue;
    const char* fill = v.side == SvgValue::Black   ? "#303030"
                       : v.side == SvgValue::White ? "#fafafa"
                                                   : "#b4b4b4";
    s << "<rect x=\"" << l.cx(p % n) - kCell / 2 + 2 << "\" y=\"" << l.cy(p / n) - kCell / 2 + 2
      << "\" width=\"" << kCell - 4 << "\" height=\"" << kCell - 4 << "\" rx=\"4\" fill=\"" << fill
      << "\" stroke=\"#808080\" stroke-width=\"1\"/>\n";
  }
  s << "</g>\n";
}

// Stones: the only circles in the picture.
void draw_stones(std::ostream& s, const SvgBoard& b, const Layout& l) {
  const int n = l.n;
  s << "<g id=\"stones\" stroke=\"#000000\" stroke-width=\"1.5\">\n";
  for (int p = 0; p < n * n; ++p) {
    if (b.cells[p] < 0) continue;
    s << "<circle cx=\"" << l.cx(p % n) << "\" cy=\"" << l.cy(p / n) << "\" r=\"" << kCell * 2 / 5
      << "\" fill=\"" << (b.cells[p] == 0 ? "#111111" : "#fcfcfc") << "\"/>\n";
  }
  s << "</g>\n";
}

void draw_marks(std::ostream& s, const SvgBoard& b, const Layout& l) {
  const int n = l.n;
  s << "<g id=\"marks\">\n";
  for (int p = 0; p < n * n; ++p) {
    const int x = l.cx(p % n), y = l.cy(p / n);
    const bool on_black = b.cells[p] == 0;
    switch (b.marks[p]) {
      case SvgMark::None:
        break;
      case SvgMark::LastMove:
        s << "<rect x=\"" << x - 5 << "\" y=\"" << y - 5 << "\" width=\"10\" height=\"10\" fill=\""
          << (on_black ? "#ffffff" : "#000000") << "\"/>\n";
        break;
      case SvgMark::Solution:
        s << "<path d=\"M" << x << ' ' << y - 12 << "L" << x + 12 << ' ' << y << "L" << x << ' ' << y + 12
          << "L" << x - 12 << ' ' << y << "Z\" fill=\"#d02020\" stroke=\"#600000\" stroke-width=\"1\"/>\n";
        break;
      case SvgMark::WeakIllegal:
        s << "<path d=\"M" << x - 9 << ' ' << y << "H" << x + 9
          << "\" stroke=\"#c00000\" stroke-width=\"3\" fill=\"none\"/>\n";
        break;
      case SvgMark::Crosscut:
        s << "<path d=\"M" << x - 8 << ' ' << y - 8 << "L" << x + 8 << ' ' << y + 8 << "M" << x + 8 << ' '
          << y - 8 << "L" << x - 8 << ' ' << y + 8
          << "\" stroke=\"#c00000\" stroke-width=\"3\" fill=\"none\"/>\n";
        break;
    }
  }
  s << "</g>\n";
}

// Value labels, on top of everything, in a colour that stands out.
void draw_labels(std::ostream& s, const SvgBoard& b, const Layout& l) {
  const int n = l.n;
  s << "<g id=\"labels\" font-size=\"13\" text-anchor=\"middle\" font-weight=\"bold\">\n";
  for (int p = 0; p < n * n; ++p) {
    const SvgValue& v = b.values[p];
    if (v.text.empty()) continue;
    const bool dark = b.cells[p] == 0 || (b.cells[p] < 0 && v.side == SvgValue::Black);
    const bool marked = !b.marks.empty() && b.marks[p] != SvgMark::None;
    s << "<text x=\"" << l.cx(p % n) << "\" y=\"" << l.cy(p / n) + (marked ? 16 : 5) << "\" fill=\""
      << (dark ? "#ffffff" : "#000000") << "\">" << xml_escape(v.text) << "</text>\n";
  }
  s << "</g>\n";
}

void draw_notes(std::ostream& s, const SvgBoard& b, const Layout& l) {
  s << "<g id=\"notes\" font-size=\"13\" fill=\"#000000\">\n";
  int y = l.y0 + l.side + kBand + kLabel + 14;
  for (const std::string& line : b.notes) {
    s << "<text x=\"8\" y=\"" << y << "\">" << xml_escape(line) << "</text>\n";
    y += kNote;
  }
  s << "</g>\n";
}

}  // namespace

std::string render_svg(const SvgBoard& b) {
  const int n = b.n;
  if (n < 1 || int(b.cells.size()) != n * n)
    throw std::invalid_argument("render_svg: cells do not match the size");
  if (!b.marks.empty() && int(b.marks.size()) != n * n)
    throw std::invalid_argument("render_svg: marks do not match the size");
  if (!b.values.empty() && int(b.values.size()) != n * n)
    throw std::invalid_argument("render_svg: values do not match the size");

  const Layout l = layout(b);
  std::ostringstream s;
  draw_header(s, b, l);
  draw_edges(s, l);
  draw_grid(s, l);
  if (!b.values.empty()) draw_values(s, b, l);
  draw_stones(s, b, l);
  if (!b.marks.empty()) draw_marks(s, b, l);
  if (!b.values.empty()) draw_labels(s, b, l);
  if (!b.notes.empty()) draw_notes(s, b, l);
  s << "</svg>\n";
  return s.str();
}

}  // namespace konobi
