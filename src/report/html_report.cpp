#include "report/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "core/measurement.hpp"
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

/// Each variant's best on this entry: variant_best where the table has it, else best and runner-up. The chosen
/// config stands for its variant (a tie may choose a config slower than that variant's fastest).
std::vector<VariantBest> variant_bests(const TableEntry& e) {
  std::vector<VariantBest> out = e.variant_best;
  if (out.empty()) {
    for (const auto* c : {&e.best, &e.runner_up}) {
      if (!*c) continue;
      const bool seen =
          std::any_of(out.begin(), out.end(), [&](const VariantBest& v) { return v.variant == (*c)->variant; });
      if (!seen) out.push_back({(*c)->variant, (*c)->name, (*c)->median_us, (*c)->gflops});
    }
  }
  for (VariantBest& v : out) {
    if (e.best && v.variant == e.best->variant) v = {e.best->variant, e.best->name, e.best->median_us, e.best->gflops};
  }
  return out;
}

bool integer_dtype(const std::string& dtype) { return dtype == "i8" || dtype == "u8" || dtype == "u8i8"; }

/// A rate unit chosen by magnitude, so a CPU device's axis reads 0.96 GFLOP/s rather than 0.000957 TFLOP/s.
struct RateUnit {
  double per_gflop;  ///< value in this unit = GFLOP/s x per_gflop
  std::string name;
};
RateUnit rate_unit(double top_gflops, const std::string& dtype) {
  const std::string op = integer_dtype(dtype) ? "OP/s" : "FLOP/s";
  if (top_gflops >= 1000.0) return {1e-3, "T" + op};
  if (top_gflops >= 1.0) return {1.0, "G" + op};
  return {1e3, "M" + op};
}

/// One bar of a group: a variant's best or an anchor's time.
struct Bar {
  std::string series;  ///< the legend item: a variant, or an anchor's label
  double gflops;
  std::string title;
  bool chosen = false;
  bool anchor = false;
};

std::vector<Bar> bars_of(const TableEntry& e, const std::string& device, const std::vector<Anchor>& anchors) {
  std::vector<Bar> bars;
  for (const VariantBest& v : variant_bests(e)) {
    const bool chosen = e.best && v.name == e.best->name;
    bars.push_back({v.variant, v.gflops, (chosen ? "chosen: " : "") + v.name + ", " + time_text(v.median_us), chosen});
  }
  const double flops = 2.0 * double(e.m) * double(e.n) * double(e.k) * double(e.batch);
  for (const Anchor* a : anchors_for(e, device, anchors)) {
    std::string title = a->label + ", " + time_text(a->us);
    if (e.best) title += ", " + num(a->us / e.best->median_us, 2) + " of the chosen config's time";
    bars.push_back({a->label, flops / a->us / 1e3, title, false, true});
  }
  return bars;
}

constexpr double kChartWidth = 1180;  // a chart fits a 1280-px window beside the page's margins

/// The legend in rows that fit the chart's width; returns the height it takes.
double legend(std::string& svg, const std::vector<std::string>& series, const Colors& colors) {
  double x = 10, y = 6;
  for (const std::string& name : series) {
    const double w = 30.0 + 7.0 * double(name.size());
    if (x + w > kChartWidth) x = 10, y += 18;
    svg += "<rect x=\"" + num(x, 0) + "\" y=\"" + num(y, 0) + "\" width=\"12\" height=\"12\" fill=\"" +
           color_of(colors, name) + "\"/><text x=\"" + num(x + 16, 0) + "\" y=\"" + num(y + 11, 0) + "\">" + esc(name) +
           "</text>\n";
    x += w;
  }
  svg += "<text x=\"" + num(x, 0) + "\" y=\"" + num(y + 11, 0) + "\">&#9660; the chosen config</text>\n";
  return y + 24;
}

/// One chart of the bars of `entries` (a group per entry), its legend on top.
std::string bar_chart_part(const std::vector<const TableEntry*>& entries, const std::vector<std::vector<Bar>>& bars,
                           const std::vector<std::string>& series, const Colors& colors, const RateUnit& unit,
                           double top) {
  const double left = 70, bottom = 120, plot_h = 260, bar_w = 14;
  const double group_w = std::max(28.0, 16.0 * double(series.size()) + 12.0);
  const double width = std::max(left + group_w * double(entries.size()) + 20, 360.0);
  std::string body;
  const double plot_top = legend(body, series, colors) + 8, y0 = plot_top + plot_h;
  for (int t = 0; t <= 4; ++t) {
    const double y = y0 - plot_h * t / 4.0;
    body += "<line class=grid x1=\"" + num(left, 0) + "\" x2=\"" + num(width - 10, 0) + "\" y1=\"" + num(y, 1) +
            "\" y2=\"" + num(y, 1) + "\"/><text class=tick x=\"" + num(left - 6, 0) + "\" y=\"" + num(y + 4, 1) +
            "\" text-anchor=end>" + sig(top * unit.per_gflop * t / 4.0) + "</text>\n";
  }
  body += "<text class=axis transform=\"translate(14," + num(plot_top + plot_h / 2, 0) +
          ") rotate(-90)\" text-anchor=middle>" + unit.name + "</text>\n";
  for (size_t i = 0; i < entries.size(); ++i) {
    const double gx = left + group_w * double(i) + 6;
    for (const Bar& b : bars[i]) {
      const double x = gx + 16.0 * double(std::find(series.begin(), series.end(), b.series) - series.begin());
      const double h = plot_h * b.gflops / top;
      body += "<rect x=\"" + num(x, 1) + "\" y=\"" + num(y0 - h, 1) + "\" width=\"" + num(bar_w, 0) + "\" height=\"" +
              num(h, 1) + "\" fill=\"" + color_of(colors, b.series) + "\"" + (b.chosen ? " class=chosen" : "") +
              "><title>" +
              esc(shape_label(*entries[i]) + ": " + b.title + ", " + sig(b.gflops * unit.per_gflop) + " " + unit.name) +
              "</title></rect>\n";
      if (b.chosen)
        body += "<text class=mark x=\"" + num(x + bar_w / 2, 1) + "\" y=\"" + num(y0 - h - 3, 1) +
                "\" text-anchor=middle>&#9660;</text>\n";
    }
    // Labels hang down and to the left from their group's centre, ending under it.
    body += "<text class=tick text-anchor=end transform=\"translate(" + num(gx + 8.0 * double(series.size()), 1) + "," +
            num(y0 + 12, 0) + ") rotate(-45)\">" + esc(shape_label(*entries[i])) + "</text>\n";
  }
  body += "<line class=axisline x1=\"" + num(left, 0) + "\" x2=\"" + num(width - 10, 0) + "\" y1=\"" + num(y0, 0) +
          "\" y2=\"" + num(y0, 0) + "\"/>\n";
  return "<svg class=chart width=\"" + num(width, 0) + "\" height=\"" + num(y0 + bottom, 0) + "\" role=img>\n" + body +
         "</svg>\n";
}

/// Each variant's best per shape, the chosen config marked, the anchors' bars beside them; as many charts as it
/// takes to keep each within a 1280-px window, on one scale.
std::string bar_chart(const std::vector<const TableEntry*>& entries, const Colors& colors, const std::string& device,
                      const std::vector<Anchor>& anchors) {
  std::vector<std::vector<Bar>> bars;
  std::vector<std::string> series;
  double top = 0.0;
  for (const TableEntry* e : entries) {
    bars.push_back(bars_of(*e, device, anchors));
    for (const Bar& b : bars.back()) {
      if (std::find(series.begin(), series.end(), b.series) == series.end()) series.push_back(b.series);
      top = std::max(top, b.gflops);
    }
  }
  if (series.empty() || top <= 0.0) return "<p class=note>No verified results to chart.</p>\n";
  std::set<std::string> anchor_series;  // the variants first in the legend and in each group, then the anchors
  for (const std::vector<Bar>& group : bars)
    for (const Bar& b : group)
      if (b.anchor) anchor_series.insert(b.series);
  std::stable_partition(series.begin(), series.end(), [&](const std::string& v) { return !anchor_series.count(v); });
  // Anchors in greys, in the order they first appear (after the variants, whose colours are their families').
  static const char* kAnchorGreys[] = {"#4d4d4d", "#8c8c8c", "#b8b8b8", "#d9d9d9"};
  Colors with_anchors = colors;
  size_t greys = 0;
  for (const std::string& name : series)
    if (anchor_series.count(name) && !with_anchors.count(name)) with_anchors[name] = kAnchorGreys[greys++ % 4];
  const RateUnit unit = rate_unit(top, entries.front()->dtype);
  const double group_w = std::max(28.0, 16.0 * double(series.size()) + 12.0);
  const size_t per_chart = std::max<size_t>(1, size_t((kChartWidth - 90) / group_w));
  std::string html;
  for (size_t from = 0; from < entries.size(); from += per_chart) {
    const size_t to = std::min(entries.size(), from + per_chart);
    html += bar_chart_part({entries.begin() + long(from), entries.begin() + long(to)},
                           {bars.begin() + long(from), bars.begin() + long(to)}, series, with_anchors, unit, top * 1.1);
  }
  return html;
}

std::string roofline(const std::vector<const TableEntry*>& entries, const std::optional<DevicePeak>& peak,
                     const std::string& dtype) {
  struct Point {
    double x, y;
    std::string label;
  };
  std::vector<Point> points;
  // Everything in one rate unit chosen by the largest rate (GFLOP/s = intensity x GB/s; `bandwidth` in the unit).
  double top_gflops = 0;
  for (const TableEntry* e : entries) top_gflops = std::max(top_gflops, e->best ? e->best->gflops : 0.0);
  if (peak) top_gflops = std::max({top_gflops, peak->f32_tflops * 1e3, peak->coopmat_f16_tflops * 1e3});
  const RateUnit unit = rate_unit(top_gflops, dtype);
  for (const TableEntry* e : entries) {
    if (e->best)
      points.push_back(
          {arithmetic_intensity(*e), e->best->gflops * unit.per_gflop, shape_label(*e) + ": " + e->best->name});
  }
  if (points.empty()) return "";
  // Ceilings: the copy bandwidth under the compute rates that apply.
  std::vector<std::pair<std::string, double>> roofs;
  const double bandwidth = peak ? peak->copy_gbps * unit.per_gflop : 0.0;
  if (peak && peak->f32_tflops > 0) roofs.push_back({"f32 FMA", peak->f32_tflops * 1e3 * unit.per_gflop});
  if (peak && dtype != "f32" && peak->coopmat_f16_tflops > 0)
    roofs.push_back({"matrix units (f16)", peak->coopmat_f16_tflops * 1e3 * unit.per_gflop});
  double x_lo = 1e300, x_hi = 0, y_lo = 1e300, y_hi = 0;
  for (const Point& p : points) {
    x_lo = std::min(x_lo, p.x), x_hi = std::max(x_hi, p.x), y_lo = std::min(y_lo, p.y), y_hi = std::max(y_hi, p.y);
  }
  for (const auto& [name, rate] : roofs) {
    y_hi = std::max(y_hi, rate);
    if (bandwidth > 0) x_hi = std::max(x_hi, rate / bandwidth);  // the ridge point
  }
  if (bandwidth > 0) y_lo = std::min(y_lo, x_lo / 2 * bandwidth);
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
         ") rotate(-90)\" text-anchor=middle>" + unit.name + "</text>\n";
  for (const auto& [name, rate] : roofs) {
    const double x_start = std::pow(10.0, lx0), x_end = std::pow(10.0, lx1), ridge = rate / bandwidth;
    std::string path = "M" + num(sx(x_start), 1) + "," + num(sy(x_start * bandwidth), 1);
    path += " L" + num(sx(ridge), 1) + "," + num(sy(rate), 1) + " L" + num(sx(x_end), 1) + "," + num(sy(rate), 1);
    svg += "<path class=roof d=\"" + path + "\"><title>" +
           esc(name + ": " + sig(rate) + " " + unit.name + ", copy " + sig(peak->copy_gbps) + " GB/s") +
           "</title></path>";
    svg += "<text class=rooflabel x=\"" + num(sx(x_end) - 4, 1) + "\" y=\"" + num(sy(rate) - 5, 1) +
           "\" text-anchor=end>" + esc(name + " " + sig(rate) + " " + unit.name) + "</text>\n";
  }
  for (const Point& p : points) {
    svg += "<circle cx=\"" + num(sx(p.x), 1) + "\" cy=\"" + num(sy(p.y), 1) + "\" r=\"5\"><title>" +
           esc(p.label + ": " + sig(p.x) + " FLOP/B, " + sig(p.y) + " " + unit.name) + "</title></circle>\n";
  }
  svg += "</svg>\n";
  if (roofs.empty()) {
    svg +=
        "<p class=note>No ceilings: this table has no measured peak (run <code>gemmtune peak --out "
        "TABLE</code>).</p>\n";
  }
  return svg;
}

/// A config name that may wrap after each underscore (the entries table must fit a 1280-px window).
std::string breakable(const std::string& name) {
  std::string out;
  for (char c : esc(name)) out += c == '_' ? std::string("_<wbr>") : std::string(1, c);
  return out;
}

std::string entry_table(const std::vector<const TableEntry*>& entries, const std::string& device,
                        const std::vector<Anchor>& anchors) {
  double top = 0;
  for (const TableEntry* e : entries) top = std::max(top, e->best ? e->best->gflops : 0.0);
  const RateUnit unit = rate_unit(top, entries.front()->dtype);
  std::string html = "<table class=sortable>\n<thead><tr><th>shape</th><th>chosen config</th><th>median</th><th>" +
                     unit.name +
                     "</th><th>runner-up</th><th>margin %</th><th>noise band %</th><th>ceiling %</th>"
                     "<th>baseline</th><th>speed-up</th><th>anchors (their time / ours)</th></tr></thead>\n<tbody>\n";
  // Numbers stay on one line; config names wrap after underscores, the anchors after their separators.
  auto cell = [](const std::string& text, const std::string& sort_key = "", bool raw = false) {
    const std::string body = raw ? text : esc(text);
    const std::string open = raw ? "<td class=wrap" : "<td";
    return sort_key.empty() ? open + ">" + body + "</td>" : open + " data-v=\"" + sort_key + "\">" + body + "</td>";
  };
  for (const TableEntry* e : entries) {
    html += "<tr>" + cell(shape_label(*e), num(double(e->m) * double(e->n) * double(e->k) * double(e->batch), 0));
    if (!e->best) {
      html += cell(esc(e->unsupported.empty() ? "no verified candidate" : e->unsupported), "", true) +
              "<td></td><td></td><td></td><td></td><td></td><td></td>";
    } else {
      const ConfigResult& b = *e->best;
      html += cell(breakable(b.name), "", true) + cell(time_text(b.median_us), num(b.median_us, 4)) +
              cell(sig(b.gflops * unit.per_gflop), num(b.gflops, 4));
      html += cell(e->runner_up ? breakable(e->runner_up->name) : "", "", true) +
              cell(num(100.0 * e->margin, 1) + (e->tie ? " (tie)" : ""), num(e->margin, 6));
      html += cell(num(100.0 * e->noise_band, 1), num(e->noise_band, 6));
      html += cell(b.bound_by.empty() ? "" : num(100.0 * b.ceiling_fraction, 0) + " (" + b.bound_by + ")",
                   num(b.ceiling_fraction, 6));
    }
    if (e->baseline_us && e->best) {
      html += cell(time_text(*e->baseline_us), num(*e->baseline_us, 4)) +
              cell(num(*e->baseline_us / e->best->median_us, 1) + "x", num(*e->baseline_us / e->best->median_us, 4));
    } else {
      html += "<td></td><td></td>";
    }
    std::string anchor_text;
    for (const Anchor* a : anchors_for(*e, device, anchors)) {
      anchor_text += (anchor_text.empty() ? "" : "; ") + a->label + " " + time_text(a->us);
      if (e->best) anchor_text += " (" + num(a->us / e->best->median_us, 2) + ")";
    }
    html += cell(esc(anchor_text), "", true) + "</tr>\n";
  }
  return html + "</tbody></table>\n";
}

const char* kStyle = R"(body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;background:#fff}
h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}h3{font-size:15px}
.chart text{font-size:11px;fill:#333}.chart .axis{font-size:12px}.grid{stroke:#e4e4e4}.axisline{stroke:#555}
.roof{stroke:#c00;stroke-width:2;fill:none}.rooflabel{fill:#c00}.chart circle{fill:#4e79a7;stroke:#fff}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}
td:first-child,td:nth-child(2),td:nth-child(5),td:nth-child(11){text-align:left}
th{background:#f3f3f3;cursor:pointer;user-select:none}table{max-width:100%}
td{white-space:nowrap}td.wrap{white-space:normal}
.chart .chosen{stroke:#000;stroke-width:1.5}.chart .mark{font-size:10px}.note{color:#666})";

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

std::string html_report(const std::vector<NamedTable>& tables, const Colors& colors,
                        const std::vector<Anchor>& anchors) {
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
    for (DType type : kAllDTypes) {
      const std::string dtype(dtype_name(type));
      std::vector<const TableEntry*> entries;
      for (const TableEntry& e : t.entries) {
        if (e.dtype == dtype) entries.push_back(&e);
      }
      if (entries.empty()) continue;
      html += "<h3>" + std::string(dtype) + ": best config of each variant</h3>\n" +
              bar_chart(entries, colors, t.device.name, anchors);
      html += "<h3>" + std::string(dtype) + ": roofline</h3>\n" + roofline(entries, t.peak, dtype);
      html += "<h3>" + std::string(dtype) + ": entries</h3>\n" + entry_table(entries, t.device.name, anchors);
    }
  }
  html += "<script>";
  html += kSortScript;
  html += "</script>\n</body></html>\n";
  return html;
}

}  // namespace gemmtune
