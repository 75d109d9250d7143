/**
 * The demo community's tracks (issue 11 "/music": "the demo community ships a few short
 * generated tracks"). The MP3 files beside this module in music/ are written by
 * scripts/generate-demo-music.ts from these parameters; the seed uploads them through the same
 * path as an admin's upload, so their titles, artists, durations and covers come from the tags.
 */
export interface DemoTrack {
  file: string;
  title: string;
  artist: string;
  seconds: number;
  bpm: number;
  /** Semitones added to every note (A4 = 0). */
  key: number;
  /** Semitones of the scale the melody draws from, relative to A4. */
  scale: number[];
  seed: number;
  /** The cover's gradient. */
  colors: [string, string];
}

const MAJOR_PENTATONIC = [0, 2, 4, 7, 9, 12];
const MINOR_PENTATONIC = [0, 3, 5, 7, 10, 12];

export const DEMO_TRACKS: DemoTrack[] = [
  {
    file: "rassvet-nad-barakholkoj.mp3",
    title: "Рассвет над барахолкой",
    artist: "Сходка Бэнд",
    seconds: 32,
    bpm: 112,
    key: -5,
    scale: MAJOR_PENTATONIC,
    seed: 11,
    colors: ["#f59e0b", "#db2777"],
  },
  {
    file: "garant-spit-spokojno.mp3",
    title: "Гарант спит спокойно",
    artist: "Восьмибитный Кот",
    seconds: 28,
    bpm: 92,
    key: -9,
    scale: MINOR_PENTATONIC,
    seed: 29,
    colors: ["#0ea5e9", "#4f46e5"],
  },
  {
    file: "depozit-na-14-dnej.mp3",
    title: "Депозит на 14 дней",
    artist: "Сходка Бэнд",
    seconds: 30,
    bpm: 128,
    key: -2,
    scale: MAJOR_PENTATONIC,
    seed: 47,
    colors: ["#10b981", "#0f766e"],
  },
];
