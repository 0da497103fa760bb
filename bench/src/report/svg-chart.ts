/** One line of a chart: its points as [x, y]. */
export interface Series {
  name: string;
  points: Array<[number, number]>;
  dashed?: boolean;
}

export interface ChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  /** The x values to mark (plotted on a log2 scale, evenly for powers of two). */
  xTicks: number[];
  series: Series[];
  width?: number;
  height?: number;
}

const COLOURS = [
  '#444444',
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
];

function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function niceLogTicks(min: number, max: number): number[] {
  const ticks: number[] = [];
  for (let power = Math.floor(Math.log10(min)); power <= Math.ceil(Math.log10(max)); power++) {
    for (const step of [1, 2, 5]) {
      const value = step * 10 ** power;
      if (value >= min / 1.01 && value <= max * 1.01) ticks.push(value);
    }
  }
  return ticks;
}

function label(value: number): string {
  return value >= 1000 ? `${value / 1000}k` : String(value);
}

/**
 * A small dependency-free SVG line chart: log-scale x (concurrency) and log-scale y
 * (throughput), one polyline with markers per series, a legend on the right.
 */
export function lineChart(options: ChartOptions): string {
  const width = options.width ?? 760;
  const height = options.height ?? 420;
  const margin = { top: 40, right: 230, bottom: 50, left: 70 };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const ys = options.series.flatMap((s) => s.points.map(([, y]) => y)).filter((y) => y > 0);
  const yMin = 10 ** Math.floor(Math.log10(Math.max(1, Math.min(...ys, 10))));
  const yMax = 10 ** Math.ceil(Math.log10(Math.max(...ys, 10)));
  const xMin = Math.log2(Math.min(...options.xTicks));
  const xMax = Math.log2(Math.max(...options.xTicks));
  const px = (x: number) => margin.left + ((Math.log2(x) - xMin) / Math.max(1e-9, xMax - xMin)) * plotW;
  const py = (y: number) =>
    margin.top + plotH - ((Math.log10(y) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * plotH;

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${escapeXml(options.title)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(options.title)}</title>`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${margin.left}" y="22" font-size="15" font-weight="bold">${escapeXml(options.title)}</text>`,
  );
  for (const tick of niceLogTicks(yMin, yMax)) {
    const y = py(tick).toFixed(1);
    parts.push(
      `<line x1="${margin.left}" y1="${y}" x2="${margin.left + plotW}" y2="${y}" stroke="#e5e5e5"/>`,
      `<text x="${margin.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${label(tick)}</text>`,
    );
  }
  for (const tick of options.xTicks) {
    const x = px(tick).toFixed(1);
    parts.push(
      `<line x1="${x}" y1="${margin.top}" x2="${x}" y2="${margin.top + plotH}" stroke="#f0f0f0"/>`,
      `<text x="${x}" y="${margin.top + plotH + 16}" text-anchor="middle">${tick}</text>`,
    );
  }
  parts.push(
    `<rect x="${margin.left}" y="${margin.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`,
    `<text x="${margin.left + plotW / 2}" y="${height - 12}" text-anchor="middle">${escapeXml(options.xLabel)}</text>`,
    `<text transform="translate(18 ${margin.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escapeXml(options.yLabel)}</text>`,
  );
  options.series.forEach((series, index) => {
    const colour = COLOURS[index % COLOURS.length] as string;
    const points = series.points.filter(([, y]) => y > 0);
    if (points.length > 0) {
      const path = points.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ');
      parts.push(
        `<polyline points="${path}" fill="none" stroke="${colour}" stroke-width="2"${series.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
        ...points.map(
          ([x, y]) => `<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3.5" fill="${colour}"/>`,
        ),
      );
    }
    const ly = margin.top + 10 + index * 20;
    parts.push(
      `<line x1="${width - margin.right + 16}" y1="${ly}" x2="${width - margin.right + 40}" y2="${ly}" stroke="${colour}" stroke-width="2"${series.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
      `<text x="${width - margin.right + 46}" y="${ly}" dominant-baseline="middle">${escapeXml(series.name)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
