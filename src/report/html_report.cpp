#include "report/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "report/markup.hpp"

namespace gemmtune {

namespace {

std::string esc(const std::string& s) { return markup_escaped(s); }

std::string num(double v, int precision = 2) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", precision, v);
  return buf;
}

/// Three significant digits, for axis ticks and labels spanning decades.
std::string sig(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

using Colors = std::map<std::string, std::string>;

/// The variant's colour from its family (a hex colour, or a neutral one for a variant this build does not know).
std::string color_of(const Colors& colors, const std::string& variant) {
  auto it = colors.find(variant);
  const bool valid = it != colors.end() && it->second.size() == 7 && it->second[0] == '#' &&
                     it->second.find_first_not_of("0123456789abcdefABCDEF", 1) == std::string::npos;
  return valid ? it->second : "#76b7b2";
}

std::string shape_label(const TableEntry& e) {
  std::string s = std::to_string(e.m) + "x" + std::to_string(e.n) + "x" + std::to_string(e.k);
  if (e.batch != 1) s += "x" + std::to_string(e.batch);
  s += " " + e.layout;
  if (e.cold) s += " cold";
  return s;
}

/// Each variant's best on this entry: variant_best where the table has it, else best and runner-up.
std::vector<VariantBest> variant_bests(const TableEntry& e) {
  if (!e.variant_best.empty()) return e.variant_best;
  std::vector<VariantBest> out;
  for (const auto* c : {&e.best, &e.runner_up}) {
    if (!*c) continue;
    const bool seen =
        std::any_of(out.begin(), out.end(), [&](const VariantBest& v) { return v.variant == (*c)->variant; });
    if (!seen) out.push_back({(*c)->variant, (*c)->name, (*c)->median_us, (*c)->gflops});
  }
  return out;
}

std::string bar_chart(const std::vector<const TableEntry*>& entries, const Colors& colors) {
  std::vector<std::string> variants;
  double top = 0.0;
  for (const TableEntry* e : entries) {
    for (const VariantBest& v : variant_bests(*e)) {
      if (std::find(variants.begin(), variants.end(), v.variant) == variants.end()) variants.push_back(v.variant);
      top = std::max(top, v.gflops / 1000.0);
    }
  }
  if (variants.empty() || top <= 0.0) return "<p class=note>No verified results to chart.</p>\n";
  top *= 1.1;
  const double left = 110, bottom = 120, plot_h = 260, group_w = std::max(28.0, 16.0 * double(variants.size()) + 12.0);
  const double width = left + group_w * double(entries.size()) + 20, height = plot_h + bottom + 40;
  std::string svg = "<svg class=chart width=\"" + num(width, 0) + "\" height=\"" + num(height, 0) + "\" role=img>\n";
  // Legend, then axis and ticks, then one group of bars per shape.
  for (size_t v = 0; v < variants.size(); ++v) {
    const double x = left + 110.0 * double(v);
    svg += "<rect x=\"" + num(x, 0) + "\" y=\"6\" width=\"12\" height=\"12\" fill=\"" + color_of(colors, variants[v]) +
           "\"/>";
    svg += "<text x=\"" + num(x + 16, 0) + "\" y=\"17\">" + esc(variants[v]) + "</text>\n";
  }
  const double y0 = 30 + plot_h;
  for (int t = 0; t <= 4; ++t) {
    const double value = top * t / 4.0, y = y0 - plot_h * t / 4.0;
    svg += "<line class=grid x1=\"" + num(left, 0) + "\" x2=\"" + num(width - 10, 0) + "\" y1=\"" + num(y, 1) +
           "\" y2=\"" + num(y, 1) + "\"/>";
    svg += "<text class=tick x=\"" + num(left - 6, 0) + "\" y=\"" + num(y + 4, 1) + "\" text-anchor=end>" + sig(value) +
           "</text>\n";
  }
  svg += "<text class=axis transform=\"translate(14," + num(30 + plot_h / 2, 0) +
         ") rotate(-90)\" text-anchor=middle>TFLOP/s</text>\n";
  for (size_t i = 0; i < entries.size(); ++i) {
    const double gx = left + group_w * double(i) + 6;
    const std::vector<VariantBest> bests = variant_bests(*entries[i]);
    for (size_t v = 0; v < variants.size(); ++v) {
      auto it =
          std::find_if(bests.begin(), bests.end(), [&](const VariantBest& b) { return b.variant == variants[v]; });
      if (it == bests.end()) continue;
      const double tflops = it->gflops / 1000.0, h = plot_h * tflops / top;
      svg += "<rect x=\"" + num(gx + 16.0 * double(v), 1) + "\" y=\"" + num(y0 - h, 1) + "\" width=\"14\" height=\"" +
             num(h, 1) + "\" fill=\"" + color_of(colors, variants[v]) + "\"><title>" +
             esc(shape_label(*entries[i]) + ": " + it->name + ", " + sig(tflops) + " TFLOP/s, " + num(it->median_us) +
                 " us") +
             "</title></rect>\n";
    }
    // Labels hang down and to the left from their group's centre, ending under it.
    const double lx = gx + 8.0 * double(variants.size());
    svg += "<text class=tick text-anchor=end transform=\"translate(" + num(lx, 1) + "," + num(y0 + 12, 0) +
           ") rotate(-45)\">" + esc(shape_label(*entries[i])) + "</text>\n";
  }
  svg += "<line class=axisline x1=\"" + num(left, 0) + "\" x2=\"" + num(width - 10, 0) + "\" y1=\"" + num(y0, 0) +
         "\" y2=\"" + num(y0, 0) + "\"/>\n";
  return svg + "</svg>\n";
}

std::string roofline(const std::vector<const TableEntry*>& entries, const std::optional<DevicePeak>& peak,
                     const std::string& dtype) {
  struct Point {
    double x, y;
    std::string label;
  };
  std::vector<Point> points;
  for (const TableEntry* e : entries) {
    if (e->best)
      points.push_back({arithmetic_intensity(*e), e->best->gflops / 1000.0, shape_label(*e) + ": " + e->best->name});
  }
  if (points.empty()) return "";
  // Ceilings: the copy bandwidth (TFLOP/s = intensity x GB/s / 1000) under the compute rates that apply.
  std::vector<std::pair<std::string, double>> roofs;
  const double bandwidth = peak ? peak->copy_gbps : 0.0;
  if (peak && peak->f32_tflops > 0) roofs.push_back({"f32 FMA", peak->f32_tflops});
  if (peak && dtype != "f32" && peak->coopmat_f16_tflops > 0)
    roofs.push_back({"matrix units (f16)", peak->coopmat_f16_tflops});
  double x_lo = 1e300, x_hi = 0, y_lo = 1e300, y_hi = 0;
  for (const Point& p : points) {
    x_lo = std::min(x_lo, p.x), x_hi = std::max(x_hi, p.x), y_lo = std::min(y_lo, p.y), y_hi = std::max(y_hi, p.y);
  }
  for (const auto& [name, rate] : roofs) {
    y_hi = std::max(y_hi, rate);
    if (bandwidth > 0) x_hi = std::max(x_hi, rate * 1000.0 / bandwidth);  // the ridge point
  }
  if (bandwidth > 0) y_lo = std::min(y_lo, x_lo / 2 * bandwidth / 1000.0);
  const double lx0 = std::floor(std::log10(x_lo / 2)), lx1 = std::ceil(std::log10(x_hi * 2));
  const double ly0 = std::floor(std::log10(y_lo / 2)), ly1 = std::ceil(std::log10(y_hi * 2));
  const double left = 70, top = 20, plot_w = 560, plot_h = 320;
  auto sx = [&](double x) { return left + plot_w * (std::log10(x) - lx0) / (lx1 - lx0); };
  auto sy = [&](double y) { return top + plot_h * (1.0 - (std::log10(y) - ly0) / (ly1 - ly0)); };
  std::string svg = "<svg class=chart width=\"" + num(left + plot_w + 30, 0) + "\" height=\"" +
                    num(top + plot_h + 60, 0) + "\" role=img>\n";
  for (double d = lx0; d <= lx1; d += 1) {
    const double x = sx(std::pow(10.0, d));
    svg += "<line class=grid x1=\"" + num(x, 1) + "\" x2=\"" + num(x, 1) + "\" y1=\"" + num(top, 0) + "\" y2=\"" +
           num(top + plot_h, 0) + "\"/>";
    svg += "<text class=tick x=\"" + num(x, 1) + "\" y=\"" + num(top + plot_h + 16, 0) + "\" text-anchor=middle>" +
           sig(std::pow(10.0, d)) + "</text>\n";
  }
  for (double d = ly0; d <= ly1; d += 1) {
    const double y = sy(std::pow(10.0, d));
    svg += "<line class=grid x1=\"" + num(left, 0) + "\" x2=\"" + num(left + plot_w, 0) + "\" y1=\"" + num(y, 1) +
           "\" y2=\"" + num(y, 1) + "\"/>";
    svg += "<text class=tick x=\"" + num(left - 6, 0) + "\" y=\"" + num(y + 4, 1) + "\" text-anchor=end>" +
           sig(std::pow(10.0, d)) + "</text>\n";
  }
  svg += "<text class=axis x=\"" + num(left + plot_w / 2, 0) + "\" y=\"" + num(top + plot_h + 40, 0) +
         "\" text-anchor=middle>arithmetic intensity (FLOP/byte)</text>\n";
  svg += "<text class=axis transform=\"translate(16," + num(top + plot_h / 2, 0) +
         ") rotate(-90)\" text-anchor=middle>TFLOP/s</text>\n";
  for (const auto& [name, rate] : roofs) {
    const double x_start = std::pow(10.0, lx0), x_end = std::pow(10.0, lx1), ridge = rate * 1000.0 / bandwidth;
    std::string path = "M" + num(sx(x_start), 1) + "," + num(sy(x_start * bandwidth / 1000.0), 1);
    path += " L" + num(sx(ridge), 1) + "," + num(sy(rate), 1) + " L" + num(sx(x_end), 1) + "," + num(sy(rate), 1);
    svg += "<path class=roof d=\"" + path + "\"><title>" +
           esc(name + ": " + sig(rate) + " TFLOP/s, copy " + sig(bandwidth) + " GB/s") + "</title></path>";
    svg += "<text class=rooflabel x=\"" + num(sx(x_end) - 4, 1) + "\" y=\"" + num(sy(rate) - 5, 1) +
           "\" text-anchor=end>" + esc(name + " " + sig(rate) + " TFLOP/s") + "</text>\n";
  }
  for (const Point& p : points) {
    svg += "<circle cx=\"" + num(sx(p.x), 1) + "\" cy=\"" + num(sy(p.y), 1) + "\" r=\"5\"><title>" +
           esc(p.label + ": " + sig(p.x) + " FLOP/B, " + sig(p.y) + " TFLOP/s") + "</title></circle>\n";
  }
  svg += "</svg>\n";
  if (roofs.empty()) {
    svg +=
        "<p class=note>No ceilings: this table has no measured peak (run <code>gemmtune peak --out "
        "TABLE</code>).</p>\n";
  }
  return svg;
}

std::string entry_table(const std::vector<const TableEntry*>& entries) {
  std::string html =
      "<table class=sortable>\n<thead><tr><th>shape</th><th>best</th><th>median us</th><th>TFLOP/s</th>"
      "<th>runner-up</th><th>margin %</th><th>noise band %</th><th>ceiling %</th><th>baseline us</th>"
      "<th>speed-up</th></tr></thead>\n<tbody>\n";
  for (const TableEntry* e : entries) {
    auto cell = [](const std::string& text, const std::string& sort_key = "") {
      return sort_key.empty() ? "<td>" + esc(text) + "</td>" : "<td data-v=\"" + sort_key + "\">" + esc(text) + "</td>";
    };
    html += "<tr>" + cell(shape_label(*e), num(double(e->m) * double(e->n) * double(e->k) * double(e->batch), 0));
    if (!e->best) {
      html += cell(e->unsupported.empty() ? "no verified candidate" : e->unsupported) +
              "<td></td><td></td><td></td><td></td><td></td><td></td>";
    } else {
      const ConfigResult& b = *e->best;
      html +=
          cell(b.name) + cell(num(b.median_us), num(b.median_us, 4)) + cell(sig(b.gflops / 1000.0), num(b.gflops, 4));
      html += cell(e->runner_up ? e->runner_up->name : "") +
              cell(num(100.0 * e->margin, 1) + (e->tie ? " (tie)" : ""), num(e->margin, 6));
      html += cell(num(100.0 * e->noise_band, 1), num(e->noise_band, 6));
      html += cell(b.bound_by.empty() ? "" : num(100.0 * b.ceiling_fraction, 0) + " (" + b.bound_by + ")",
                   num(b.ceiling_fraction, 6));
    }
    if (e->baseline_us && e->best) {
      html += cell(num(*e->baseline_us), num(*e->baseline_us, 4)) +
              cell(num(*e->baseline_us / e->best->median_us, 1) + "x", num(*e->baseline_us / e->best->median_us, 4));
    } else {
      html += "<td></td><td></td>";
    }
    html += "</tr>\n";
  }
  return html + "</tbody></table>\n";
}

const char* kStyle = R"(body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;background:#fff}
h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}h3{font-size:15px}
.chart text{font-size:11px;fill:#333}.chart .axis{font-size:12px}.grid{stroke:#e4e4e4}.axisline{stroke:#555}
.roof{stroke:#c00;stroke-width:2;fill:none}.rooflabel{fill:#c00}.chart circle{fill:#4e79a7;stroke:#fff}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}
td:first-child,td:nth-child(2),td:nth-child(5){text-align:left}th{background:#f3f3f3;cursor:pointer;user-select:none}
.note{color:#666})";

// Click a header to sort by that column (numbers by their data-v key), again to reverse.
const char* kSortScript = R"(document.querySelectorAll('table.sortable').forEach(function(t){
t.querySelectorAll('th').forEach(function(th,col){th.addEventListener('click',function(){
var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows),dir=th.dataset.dir==='asc'?-1:1;
th.dataset.dir=dir>0?'asc':'desc';
rows.sort(function(a,b){var x=a.cells[col],y=b.cells[col],xv=x.dataset.v,yv=y.dataset.v;
if(xv!==undefined&&yv!==undefined)return dir*(parseFloat(xv)-parseFloat(yv));
return dir*x.textContent.localeCompare(y.textContent);});
rows.forEach(function(r){body.appendChild(r);});});});});)";

}  // namespace

std::string html_report(const std::vector<NamedTable>& tables, const Colors& colors) {
  std::string html = "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>gemmtune report</title>\n<style>";
  html += kStyle;
  html += "</style></head><body>\n<h1>gemmtune report</h1>\n";
  for (const NamedTable& nt : tables) {
    const TuningTable& t = nt.table;
    html += "<h2>" + esc(t.device.name) + "</h2>\n<p>" + esc(nt.path) + ": driver " +
            esc(t.device.driver_name + " " + t.device.driver_version) + ", Vulkan " + esc(t.device.api_version) +
            ", written by " + esc(t.tool.name + " " + t.tool.version) + " on " + esc(t.created) + ", " +
            std::to_string(t.entries.size()) + " entries";
    if (t.peak) {
      html += "; measured ceilings: f32 " + sig(t.peak->f32_tflops) + " TFLOP/s, copy " + sig(t.peak->copy_gbps) +
              " GB/s" +
              (t.peak->coopmat_f16_tflops > 0 ? ", matrix units " + sig(t.peak->coopmat_f16_tflops) + " TFLOP/s" : "");
    }
    html += "</p>\n";
    for (const char* dtype : {"f32", "f16", "bf16", "i8", "u8", "u8i8"}) {
      std::vector<const TableEntry*> entries;
      for (const TableEntry& e : t.entries) {
        if (e.dtype == dtype) entries.push_back(&e);
      }
      if (entries.empty()) continue;
      html += "<h3>" + std::string(dtype) + ": best config of each variant</h3>\n" + bar_chart(entries, colors);
      html += "<h3>" + std::string(dtype) + ": roofline</h3>\n" + roofline(entries, t.peak, dtype);
      html += "<h3>" + std::string(dtype) + ": entries</h3>\n" + entry_table(entries);
    }
  }
  html += "<script>";
  html += kSortScript;
  html += "</script>\n</body></html>\n";
  return html;
}

}  // namespace gemmtune
