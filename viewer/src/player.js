// Time keeping of a recording: the frame shown at a time, and the playback clock.

// Index of the frame nearest to `time` (frames are in time order; a recorded time is a
// sum of steps, 1.0000000000000007 for 1 s, so the nearest, not the last ≤ time).
export function frameAt(frames, time) {
  let lo = 0;
  let hi = frames.length - 1;
  if (time <= frames[0].t) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (frames[mid].t <= time) lo = mid;
    else hi = mid - 1;
  }
  const next = Math.min(lo + 1, frames.length - 1);
  return frames[next].t - time < time - frames[lo].t ? next : lo;
}

export class Clock {
  constructor(start, end) {
    this.start = start;
    this.end = end;
    this.time = start;
    this.playing = false;
    this.speed = 1;
    this.last = null;
  }

  // Advances by the wall time since the last tick while playing; loops at the end.
  tick(now) {
    if (this.playing && this.last !== null) {
      this.time += ((now - this.last) / 1000) * this.speed;
      if (this.time > this.end) this.time = this.start;
    }
    this.last = now;
    return this.time;
  }

  seek(time) {
    this.time = Math.min(Math.max(time, this.start), this.end);
  }
}
