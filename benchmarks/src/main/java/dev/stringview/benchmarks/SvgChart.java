package dev.stringview.benchmarks;

import java.util.List;
import java.util.Locale;

/** Horizontal grouped bar charts as standalone SVG, drawn from measured values only. */
final class SvgChart {
    private static final String[] COLORS = {"#1f77b4", "#7f7f7f", "#ff7f0e", "#bcbd22", "#2ca02c", "#9467bd",
        "#d62728", "#17becf"};
    private static final int LABEL_WIDTH = 190;
    private static final int PLOT_WIDTH = 560;
    private static final int BAR = 11;
    private static final int GROUP_GAP = 12;

    private SvgChart() {}

    /**
     * @param values {@code values[group][series]}, NaN for a missing measurement (drawn as "n/a")
     */
    static String bars(String title, String unit, List<String> groups, List<String> series, double[][] values) {
        double max = 0;
        for (double[] row : values) {
            for (double v : row) {
                if (!Double.isNaN(v)) {
                    max = Math.max(max, v);
                }
            }
        }
        double scaleMax = niceCeiling(max);
        int legendRows = (series.size() + 2) / 3;
        int top = 40 + legendRows * 18;
        int groupHeight = series.size() * (BAR + 2) + GROUP_GAP;
        int height = top + groups.size() * groupHeight + 40;
        int width = LABEL_WIDTH + PLOT_WIDTH + 90;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n", width, height, width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">%s</text>%n",
                escape(title)));
        for (int s = 0; s < series.size(); s++) {
            int x = 10 + (s % 3) * 260;
            int y = 34 + (s / 3) * 18;
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%d\">%s</text>%n", x, y, COLORS[s % COLORS.length], x + 16, y + 10,
                    escape(series.get(s))));
        }
        // grid
        for (int t = 0; t <= 4; t++) {
            double v = scaleMax * t / 4;
            int x = LABEL_WIDTH + (int) Math.round(PLOT_WIDTH * t / 4.0);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%s</text>%n", x, top - 4, x,
                    height - 30, x, height - 16, format(v)));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%s</text>%n",
                LABEL_WIDTH + PLOT_WIDTH / 2, height - 3, escape(unit)));
        for (int g = 0; g < groups.size(); g++) {
            int y0 = top + g * groupHeight;
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                    LABEL_WIDTH - 8, y0 + (series.size() * (BAR + 2)) / 2 + 4, escape(groups.get(g))));
            for (int s = 0; s < series.size(); s++) {
                double v = values[g][s];
                int y = y0 + s * (BAR + 2);
                if (Double.isNaN(v)) {
                    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#999\">n/a</text>%n",
                            LABEL_WIDTH + 2, y + BAR - 2));
                    continue;
                }
                int w = scaleMax == 0 ? 0 : (int) Math.max(1, Math.round(PLOT_WIDTH * v / scaleMax));
                svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\">"
                        + "<title>%s: %s %s</title></rect><text x=\"%d\" y=\"%d\" fill=\"#333\">%s</text>%n",
                        LABEL_WIDTH, y, w, BAR, COLORS[s % COLORS.length], escape(series.get(s)), format(v),
                        escape(unit), LABEL_WIDTH + w + 4, y + BAR - 2, format(v)));
            }
        }
        return svg.append("</svg>\n").toString();
    }

    static double niceCeiling(double v) {
        if (v <= 0 || Double.isNaN(v)) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= v) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    static String format(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        if (v == 0) {
            return "0";
        }
        if (Math.abs(v) >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (Math.abs(v) >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
