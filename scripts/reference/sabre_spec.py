#!/usr/bin/env python3
"""Independent reference implementation of the Sabre ABR simulator -- a test oracle.

This is a transcription of the operation-by-operation specification ../shared/specs/sabre.md
(written without looking at Sabre's own source), kept for abrlab's tests. It follows the spec's
operation order so that IEEE-double results (including the rounding-sized final "spurious" rebuffer
event of spec §13 item 12) come out the same as Sabre's.

Sabre and the BOLA-E / DYNAMIC algorithms are from:
  K. Spiteri, D. Nguyen, R. K. Sitaraman, "From Theory to Practice: Improving Bitrate Adaptation
  in the DASH Reference Player", ACM MMSys 2018, doi:10.1145/3204949.3204953.

Units: size in bits, time in ms, rate in bits/ms (= kbit/s). Section numbers (§) refer to the spec.

Usage:
  sabre_spec.py -n NETWORK.json -m MOVIE.json -a ALGO [-r none|left|right] [-noa] [-b SECONDS]
                [-nm X] [-gp G] [-ma ewma|sliding] [--json]
  sabre_spec.py --batch OUT.json        (all five ABRs over the mmsys18 3G/4G sets and the example)
Standard library only.
"""
import argparse
import glob
import json
import math
import os
import sys
import time

# Sabre's datasets: ../shared/datasets/sabre beside the repository, or $ABRLAB_SABRE_DATA.
DATA_DIR = os.environ.get('ABRLAB_SABRE_DATA') or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'shared', 'datasets', 'sabre')
ALGORITHMS = ['bola', 'bolae', 'dynamic', 'dynamicdash', 'throughput']


# ------------------------------------------------------------------------------------------------
# §1 Inputs
class Movie:
    def __init__(self, d):
        self.S, self.b, self.sizes = d['segment_duration_ms'], d['bitrates_kbps'], d['segment_sizes_bits']
        self.N, self.L = len(self.sizes), len(self.b)
        # global utility used by the metrics: U[q] = ln(b[q]) + (0 - ln(b[0]))
        self.U = [math.log(x) + (0 - math.log(self.b[0])) for x in self.b]


class Progress:
    """A download result / progress report (§2)."""
    def __init__(self, index, quality, size, downloaded, time_, ttfb, abandon_to=None):
        self.index, self.quality, self.size = index, quality, size
        self.downloaded, self.time, self.ttfb, self.abandon_to = downloaded, time_, ttfb, abandon_to


# ------------------------------------------------------------------------------------------------
# §2 Network model
class Network:
    MIN_BITS, MIN_MS = 12000, 50

    def __init__(self, trace, movie, multiplier, on_change):
        self.dur = [p['duration_ms'] for p in trace]
        self.bw = [p['bandwidth_kbps'] * multiplier for p in trace]
        self.lat = [p['latency_ms'] for p in trace]
        self.movie, self.on_change = movie, on_change  # on_change = advertise(newq, oldq), §11.2
        self.net_time, self.sustainable_quality, self.started = 0, None, False
        self._enter(0)
        self.started = True

    def _enter(self, k):
        self.k, self.remaining, m = k, self.dur[k], self.movie
        eff = self.bw[k] * (1 - self.lat[k] / m.S)
        sq = 0
        while sq + 1 < m.L and m.b[sq + 1] <= eff:  # level 0 is never tested
            sq += 1
        prev = self.sustainable_quality
        self.sustainable_quality = sq
        if self.started and sq != prev:
            self.on_change(sq, prev)

    def _next(self):
        self._enter((self.k + 1) % len(self.dur))

    def _consume(self, t):
        self.net_time += t
        self.remaining -= t

    def _exhaust(self):
        """Consume the rest of the current period, enter the next; returns the ms consumed."""
        r = self.remaining
        self._consume(r)
        self._next()
        return r

    def latency(self):
        """Pay one latency unit (pro-rated across period boundaries); returns the delay."""
        units, delay = 1, 0
        while True:
            lat = self.lat[self.k]
            t = units * lat
            if t <= self.remaining:
                self._consume(t)
                return delay + t
            r = self._exhaust()
            delay += r
            units -= r / lat

    def transfer(self, n):
        """Plain transfer of n bits; returns the time taken."""
        total = 0
        while True:
            w = self.bw[self.k]
            cap = self.remaining * w
            if n <= cap:
                t = n / w
                self._consume(t)
                return total + t
            n -= cap
            total += self._exhaust()

    def idle(self, d):
        """Idle wait of d ms (strict '>' keeps a boundary hit inside the old period)."""
        while d > self.remaining:
            d -= self._exhaust()
        self._consume(d)

    def _step(self, rest, min_bits, min_ms):
        """One progress step (§2 step 3); returns (bits, ms)."""
        bits, ms = 0, 0
        while True:
            w = self.bw[self.k]
            if w > 0:
                need = max(min_bits, min_ms * w)
                cap = self.remaining * w
                if rest <= need and rest <= cap:
                    t = rest / w
                    self._consume(t)
                    return bits + rest, ms + t
                if need <= cap:
                    t = need / w
                    self._consume(t)
                    return bits + need, ms + t
                bits, min_bits, rest = bits + cap, min_bits - cap, rest - cap
                r = self._exhaust()
                ms, min_ms = ms + r, min_ms - r
            elif min_bits > 0 or min_ms > self.remaining:  # zero bandwidth: wait it out
                r = self._exhaust()
                ms, min_ms = ms + r, min_ms - r
            else:
                self._consume(min_ms)
                return bits, ms + min_ms

    def download(self, n, index, quality, level_at_start, checker):
        """Download n bits; checker(progress, buffer_level) -> abandon quality or None."""
        if checker is None:
            ttfb = self.latency()
            return Progress(index, quality, n, n, ttfb + self.transfer(n), ttfb)
        ttfb = self.latency()
        elapsed, got = ttfb, 0
        min_bits, min_ms = self.MIN_BITS, self.MIN_MS - ttfb
        while True:
            bits, ms = self._step(n - got, min_bits, min_ms)
            got, elapsed = got + bits, elapsed + ms
            if got < n:
                p = Progress(index, quality, n, got, elapsed, ttfb)
                ans = checker(p, max(0, level_at_start - elapsed))
                if ans is not None:
                    p.abandon_to = ans
                    return p
            else:
                return Progress(index, quality, n, got, elapsed, ttfb)
            min_bits, min_ms = self.MIN_BITS, self.MIN_MS


# ------------------------------------------------------------------------------------------------
# §5 Throughput / latency estimators
class EwmaEstimator:
    def __init__(self, S, half_lives=(3000, 8000)):
        self.H = list(half_lives)  # ms
        self.HL = [h / S for h in self.H]  # latency half-lives, in segments
        self.T, self.Lt = [0] * len(self.H), [0] * len(self.H)
        self.WT, self.WL = 0, 0
        self.throughput = self.latency = None

    def push(self, dt, t, l):
        for i in range(len(self.H)):
            a = 0.5 ** (dt / self.H[i])
            self.T[i] = a * self.T[i] + (1 - a) * t
            a = 0.5 ** (1 / self.HL[i])
            self.Lt[i] = a * self.Lt[i] + (1 - a) * l
        self.WT += dt
        self.WL += 1
        self.throughput = min(self.T[i] / (1 - 0.5 ** (self.WT / self.H[i]))
                              for i in range(len(self.H)))
        self.latency = max(self.Lt[i] / (1 - 0.5 ** (self.WL / self.HL[i]))
                           for i in range(len(self.H)))


class SlidingEstimator:
    MAX_SAMPLES = 20

    def __init__(self, windows=(3,)):
        self.windows, self.samples = list(windows), []
        self.throughput = self.latency = None

    def push(self, dt, t, l):
        self.samples.append((t, l))
        self.samples = self.samples[-self.MAX_SAMPLES:]
        tps, lats = [], []
        for w in self.windows:
            last = self.samples[-w:]
            tps.append(sum(x[0] for x in last) / len(last))
            lats.append(sum(x[1] for x in last) / len(last))
        self.throughput = min(tps)
        self.latency = max(lats)


# ------------------------------------------------------------------------------------------------
# ABRs (§6-§9). They see the session `s` and read s.buffer_level(), s.est.throughput,
# s.est.latency, s.movie, s.buffer_size, s.gp. check_abandon(progress, buffer) -> quality or None.
def quality_from_throughput(s, x):
    """qft(x), §5: largest q with latency + S*b[q]/x <= S (current latency estimate)."""
    m, lat, q = s.movie, s.est.latency, 0
    while q + 1 < m.L and lat + m.S * m.b[q + 1] / x <= m.S:
        q += 1
    return q


def ibr_cap(s, q, safety):
    """Insufficient-buffer rule: the lowered quality, or None if q is kept."""
    m = s.movie
    safe = safety * (s.buffer_level() - s.est.latency) * s.est.throughput
    for j in range(q):
        if m.b[j + 1] * m.S > safe:
            return j
    return None


def bola_argmax(Vp, u, gp, b, x):
    """argmax_q (Vp*(u[q]+gp) - x)/b[q], first maximum wins."""
    q, best = 0, None
    for k in range(len(b)):
        v = (Vp * (u[k] + gp) - x) / b[k]
        if best is None or v > best:
            q, best = k, v
    return q


def bola_abandon_scan(Vp, u, gp, b, p, buf, rem, score):
    """Lower quality whose score beats `score` and whose whole size is < rem (BOLA / BOLA-E)."""
    best, cur = None, p.quality
    for q in range(cur):
        osz = p.size * b[q] / b[cur]
        os_ = (Vp * (gp + u[q]) - buf) / osz
        if osz < rem and os_ > score:
            best, score = q, os_
    return best


class Abr:
    def __init__(self, s):
        self.s = s

    def first_quality(self):
        return 0

    def check_abandon(self, p, buf):
        return None

    def report_delay(self, w):
        pass

    def report_download(self, p, is_replacement):
        pass


class ThroughputRule(Abr):  # §6
    SAFETY, ABANDON_MULT, GRACE_MS = 0.9, 1.8, 500

    def __init__(self, s):
        super().__init__(s)
        self.ibr = 0.9

    def get_quality_delay(self, index):
        s = self.s
        q = quality_from_throughput(s, self.SAFETY * s.est.throughput)
        safety = self.ibr
        self.ibr = max(0.5, 0.9 * self.ibr)
        j = ibr_cap(s, q, safety)
        return (q if j is None else j), 0

    def check_abandon(self, p, buf):  # ignores the buffer
        m = self.s.movie
        dl = p.time - p.ttfb
        if p.time >= self.GRACE_MS and dl > 0:
            rate = p.downloaded / dl
            left = p.size - p.downloaded
            if p.time + left / rate > self.ABANDON_MULT * m.S:
                nq = quality_from_throughput(self.s, self.SAFETY * rate)
                if not (nq >= p.quality or p.size * m.b[nq] / m.b[p.quality] >= left):
                    return nq
        return None


class Bola(Abr):  # §7 (BOLA-U style, default flags)
    def __init__(self, s):
        super().__init__(s)
        m = s.movie
        self.u = [math.log(x) - math.log(m.b[0]) for x in m.b]
        self.gp, self.B = s.gp, s.buffer_size
        self.Vp = (self.B - m.S) / (self.u[m.L - 1] + self.gp)
        self.last, self.seek_index = 0, 0

    def get_quality_delay(self, i):
        s, m = self.s, self.s.movie
        t = min(i - self.seek_index, m.N - i)
        t = max(t / 2, 3)
        beff = min(self.B, t * m.S)
        self.Vp = (beff - m.S) / (self.u[m.L - 1] + self.gp)  # persists into check_abandon
        q = bola_argmax(self.Vp, self.u, self.gp, m.b, s.buffer_level())
        if q > self.last:
            qt = quality_from_throughput(s, s.est.throughput)
            if q > qt:
                q = self.last if self.last > qt else qt + 1
        self.last = q
        return q, 0

    def check_abandon(self, p, buf):
        rem = p.size - p.downloaded
        if p.downloaded <= 0 or rem <= 0:
            return None
        score = (self.Vp * (self.gp + self.u[p.quality]) - buf) / rem
        if score < 0:
            return None
        best = bola_abandon_scan(self.Vp, self.u, self.gp, self.s.movie.b, p, buf, rem, score)
        if best is not None:
            self.last = best
        return best


class BolaE(Abr):  # §8 (BOLA-E with placeholder, IBR on)
    MIN_BUFFER, PER_LEVEL = 10000, 2000

    def __init__(self, s):
        super().__init__(s)
        m = s.movie
        # One offset, 1 - ln(b[0]), computed first as Sabre does: a placeholder lowered to
        # minbuf(abandon_to) after an abandonment lands on the tie between two levels, which the
        # last bits of u decide (4G set, bbb4k: 24 sessions of bolae and dynamicdash).
        offset = 1 - math.log(m.b[0])
        self.u = [math.log(x) + offset for x in m.b]
        buf = max(self.MIN_BUFFER + self.PER_LEVEL * m.L, s.buffer_size)
        self.buffer_target = buf  # printed as an extra first line (§8.2)
        self.gp = (self.u[m.L - 1] - 1) / (buf / self.MIN_BUFFER - 1)
        self.Vp = self.MIN_BUFFER / self.gp
        self.steady, self.placeholder, self.last, self.ibr = False, 0, 0, 0.9

    def maxbuf(self, q):
        return self.Vp * (self.u[q] + self.gp)

    def minbuf(self, q):
        b, u, best = self.s.movie.b, self.u, None
        for j in range(q):
            if u[j] < u[q]:
                v = self.Vp * (self.gp + (b[q] * u[j] - b[j] * u[q]) / (b[q] - b[j]))
                if best is None or v > best:
                    best = v
        return 0 if best is None else best

    def get_quality_delay(self, index):
        s, m = self.s, self.s.movie
        level = s.buffer_level()
        if not self.steady:  # STARTUP
            self.steady, self.ibr = True, 0.9
            q = quality_from_throughput(s, s.est.throughput)
            self.placeholder = max(0, self.minbuf(q) - level)
            return q, 0
        q = bola_argmax(self.Vp, self.u, self.gp, m.b, level + self.placeholder)
        qt = quality_from_throughput(s, s.est.throughput)
        if q > self.last and q > qt:
            q = max(self.last, qt) + 1
        d = level + self.placeholder - self.maxbuf(q)
        if d > 0:
            if d <= self.placeholder:
                self.placeholder -= d
                d = 0
            else:
                d -= self.placeholder
                self.placeholder = 0
        else:
            d = 0
        if q == m.L - 1:
            d = 0
        safety = self.ibr
        self.ibr = max(0.5, 0.9 * self.ibr)
        j = ibr_cap(s, q, safety)
        if j is not None:
            q, d = j, 0
            self.placeholder = min(self.placeholder, max(0, self.minbuf(j) - level))
        return q, d

    def report_delay(self, w):
        self.placeholder += w

    def report_download(self, p, is_replacement):
        self.last = p.quality  # the requested quality, also when abandoned
        lv = self.s.buffer_level()
        if p.abandon_to is None:
            if is_replacement:
                self.placeholder += self.s.movie.S
            else:
                was = lv + p.time
                self.placeholder = min(self.placeholder, max(0, self.maxbuf(p.quality) - was))
                if lv > 0:
                    self.placeholder = max(self.placeholder, self.minbuf(p.quality) - was)
        elif not is_replacement:
            want = self.minbuf(p.abandon_to) if p.abandon_to > 0 else self.MIN_BUFFER
            self.placeholder = min(self.placeholder, max(0, want - lv))

    def check_abandon(self, p, buf):
        rem = p.size - p.downloaded
        if p.downloaded <= 0 or rem <= 0:
            return None
        bl = max(0, buf + self.placeholder - p.ttfb)
        rate = p.downloaded / (p.time - p.ttfb)
        sz = rem - p.ttfb * rate
        if sz <= 0:
            return None
        score = (self.Vp * (self.gp + self.u[p.quality]) - bl) / sz
        return bola_abandon_scan(self.Vp, self.u, self.gp, self.s.movie.b, p, bl, sz, score)


class Dynamic(Abr):  # §9 dynamic: BOLA + throughput, both asked every time
    THRESHOLD = 10000

    def __init__(self, s):
        super().__init__(s)
        self.bola, self.tput, self.use_bola = Bola(s), ThroughputRule(s), False

    def get_quality_delay(self, index):
        level = self.s.buffer_level()
        qb, db = self.bola.get_quality_delay(index)
        qt, dt = self.tput.get_quality_delay(index)
        if self.use_bola and level < self.THRESHOLD and qb < qt:
            self.use_bola = False
        elif not self.use_bola and level > self.THRESHOLD and qb >= qt:
            self.use_bola = True
        return (qb, db) if self.use_bola else (qt, dt)

    def check_abandon(self, p, buf):
        return self.tput.check_abandon(p, buf)  # always the throughput rule (§13 item 8)

    def report_download(self, p, is_replacement):  # sub-ABR reports are no-ops
        if is_replacement:
            self.use_bola = False


class DynamicDash(Abr):  # §9 dynamicdash: BOLA-E + throughput, only the active one is asked
    LOW, HIGH = 5000, 10000

    def __init__(self, s):
        super().__init__(s)
        self.bola, self.tput, self.use_bola = BolaE(s), ThroughputRule(s), False
        self.buffer_target = self.bola.buffer_target

    def get_quality_delay(self, index):
        level = self.s.buffer_level()
        if self.use_bola and level < self.LOW:
            self.use_bola = False
        elif not self.use_bola and level > self.HIGH:
            self.use_bola = True
        return (self.bola if self.use_bola else self.tput).get_quality_delay(index)

    def check_abandon(self, p, buf):
        return (self.bola if self.use_bola else self.tput).check_abandon(p, buf)

    def report_delay(self, w):  # both; the throughput rule's is a no-op
        self.bola.report_delay(w)

    def report_download(self, p, is_replacement):
        self.bola.report_download(p, is_replacement)


ABRS = {'bola': Bola, 'bolae': BolaE, 'dynamic': Dynamic, 'dynamicdash': DynamicDash,
        'throughput': ThroughputRule}


# ------------------------------------------------------------------------------------------------
# §10 Replacement
class Replace:
    def __init__(self, s, direction):
        self.s, self.left, self.r = s, direction == 'left', None

    def check_replace(self, q):
        s = self.s
        skip = math.ceil(1.5 + s.fcc / s.movie.S)
        n = len(s.buffer)
        order = range(skip, n) if self.left else range(n - 1, skip - 1, -1)
        for i in order:
            if s.buffer[i] < q:
                self.r = i - n
                return self.r
        return None

    def check_abandon(self, p, buf):
        return -1 if buf + self.s.movie.S * self.r <= 0 else None


# ------------------------------------------------------------------------------------------------
# §3, §4, §11 Buffer, session loop, ramp-up / reaction bookkeeping
class Session:
    def __init__(self, movie, trace, algorithm='bolae', replace='none', abandon=True,
                 buffer_seconds=25, multiplier=1, gp=5, average='ewma', out=None):
        self.movie, self.gp, self.abandon = movie, gp, abandon
        self.buffer_size = buffer_seconds * 1000.0
        self.max_buffer_size = self.buffer_size
        self.out = out  # where warnings go (a file), or None to drop them
        self.buffer, self.fcc = [], 0  # qualities of whole segments; ms played of the head
        self.play_time = self.rebuffer_time = self.rebuffer_events = 0
        self.played_utility = self.played_bitrate = self.bitrate_change = self.log_change = 0
        self.last_played = self.rampup_time = None
        self.rampup_origin = self.total_reaction = 0
        self.pending = []  # up-switch records [opened_at, target, closed_at or None]
        self.over_n = self.leq_n = 0
        self.over_avg = self.leq_avg = self.est_avg = 0
        # construction order (§4): ABR, network, replacement, estimator
        self.abr = ABRS[algorithm](self)
        self.network = Network(trace, movie, multiplier, self.advertise)
        self.replacer = None if replace == 'none' else Replace(self, replace)
        self.est = EwmaEstimator(movie.S) if average == 'ewma' else SlidingEstimator()

    # -- buffer ---------------------------------------------------------------------------------
    def level(self):
        return self.movie.S * len(self.buffer) - self.fcc

    def buffer_level(self):
        """The buffer level as the ABR algorithms read it."""
        return self.level()

    def drain(self, d):
        m, S = self.movie, self.movie.S
        if not self.buffer:  # no event, no reaction bookkeeping
            self.rebuffer_time += d
            self.play_time += d
            return
        if self.fcc > 0:
            if d + self.fcc < S:
                self.fcc += d
                self.play_time += d
                return
            d -= S - self.fcc
            self.play_time += S - self.fcc
            self.buffer.pop(0)
            self.fcc = 0
        while d > 0 and self.buffer:
            q = self.buffer[0]
            self.played_utility += m.U[q]
            self.played_bitrate += m.b[q]
            if self.last_played is not None and q != self.last_played:
                self.bitrate_change += abs(m.b[q] - m.b[self.last_played])
                self.log_change += abs(math.log(m.b[q] / m.b[self.last_played]))
            self.last_played = q
            if self.rampup_time is None and q >= self.network.sustainable_quality:
                self.rampup_time = self.play_time - self.rampup_origin
            for rec in self.pending:
                if rec[2] is None and rec[1] <= q:
                    rec[2] = self.play_time
            if d >= S:
                self.buffer.pop(0)
                self.play_time += S
                d -= S
            else:  # fcc is the leftover of the drain argument (§13 item 12)
                self.fcc, self.play_time, d = d, self.play_time + d, 0
        if d > 0:
            self.rebuffer_time += d
            self.play_time += d
            self.rebuffer_events += 1
        self.process_matured(self.play_time)

    def playout(self):
        self.drain(self.level())
        self.buffer, self.fcc = [], 0

    # -- §11 reaction bookkeeping ---------------------------------------------------------------
    def process_matured(self, now):
        cutoff = now - self.max_buffer_size
        while self.pending and self.pending[0][0] < cutoff:
            opened, target, closed = self.pending.pop(0)
            self.total_reaction += (self.max_buffer_size if closed is None
                                    else min(self.max_buffer_size, closed - opened))

    def advertise(self, newq, oldq):
        now = self.network.net_time
        self.process_matured(now)
        for rec in self.pending:
            if rec[2] is None and rec[1] > newq:
                rec[2] = now
        if (newq <= oldq or any(q >= newq for q in self.buffer)
                or any(rec[1] >= newq for rec in self.pending)):
            return
        self.pending.append([now, newq, None])

    # -- §4 session loop ------------------------------------------------------------------------
    def _abr_checker(self, p, buf):
        return self.abr.check_abandon(p, buf)

    def run(self):
        m, net, abr = self.movie, self.network, self.abr
        S = m.S
        q0 = abr.first_quality()
        d = net.download(m.sizes[0][q0], 0, q0, 0, None)
        dl = d.time - d.ttfb
        self.buffer.append(q0)
        self.est.push(dl, d.size / dl, d.ttfb)
        self.play_time += d.time
        nxt = 1
        while nxt < m.N:
            w = self.level() + S - self.buffer_size
            if w > 0:
                self.drain(w)
                net.idle(w)
                abr.report_delay(w)
            q, delay = abr.get_quality_delay(nxt)
            r = self.replacer.check_replace(q) if self.replacer else None
            if r is not None:
                delay, target, checker = 0, nxt + r, self.replacer.check_abandon
            else:
                target, checker = nxt, self._abr_checker
            if not self.abandon:
                checker = None
            if delay > 0:
                self.drain(delay)
                net.idle(delay)
            d = net.download(m.sizes[target][q], target, q, self.level(), checker)
            self.drain(d.time)
            abandoned = d.abandon_to is not None
            if r is None:
                if not abandoned:
                    self.buffer.append(q)
                    nxt += 1
            elif not abandoned:
                if self.level() + S * r >= 0:
                    self.buffer[r] = q
                elif self.out is not None:
                    print('WARNING: too late to replace', file=self.out)
            abr.report_download(d, r is not None)
            dl = d.time - d.ttfb
            t, l = d.downloaded / dl, d.ttfb
            tp = self.est.throughput  # the estimate before this sample
            if tp > t:
                self.over_n += 1
                self.over_avg += (tp - t - self.over_avg) / self.over_n
            else:
                self.leq_n += 1
                self.leq_avg += (t - tp - self.leq_avg) / self.leq_n
            self.est_avg += (tp - t - self.est_avg) / (self.over_n + self.leq_n)
            if not abandoned:
                self.est.push(dl, t, l)
        self.final_events_before = self.rebuffer_events
        self.final_rebuffer_before = self.rebuffer_time
        self.playout()
        return self.metrics()

    # -- §12 metrics ----------------------------------------------------------------------------
    def metrics(self):
        m = self.movie
        S, P, R = m.S, self.play_time, self.rebuffer_time
        k = S / P
        U, B, E = self.played_utility, self.played_bitrate, self.rebuffer_events
        rampup = self.rampup_time / 1000 if self.rampup_time is not None else m.N * S / 1000
        return [
            ('buffer size', '%d', self.buffer_size),
            ('total played utility', '%f', U),
            ('time average played utility', '%f', U * k),
            ('total played bitrate', '%f', B),
            ('time average played bitrate', '%f', B * k),
            ('total play time', '%f', P / 1000),
            ('total play time chunks', '%f', P / S),
            ('total rebuffer', '%f', R / 1000),
            ('rebuffer ratio', '%f', R / P),
            ('time average rebuffer', '%f', R / 1000 * k),
            ('total rebuffer events', '%f', E),
            ('time average rebuffer events', '%f', E * k),
            ('total bitrate change', '%f', self.bitrate_change),
            ('time average bitrate change', '%f', self.bitrate_change * k),
            ('total log bitrate change', '%f', self.log_change),
            ('time average log bitrate change', '%f', self.log_change * k),
            ('time average score', '%f', k * (U - self.gp * R / S)),
            ('over estimate count', '%d', self.over_n),
            ('over estimate', '%f' if self.over_n else '%d', self.over_avg if self.over_n else 0),
            ('leq estimate count', '%d', self.leq_n),
            ('leq estimate', '%f' if self.leq_n else '%d', self.leq_avg if self.leq_n else 0),
            ('estimate', '%f', self.est_avg),
            ('rampup time', '%f', rampup),
            ('total reaction time', '%f', self.total_reaction / 1000),
        ]

    def final_spurious_event(self):
        """True if the final playout counted a rebuffer event with ~0 stall (§13 item 12)."""
        ev = self.rebuffer_events - self.final_events_before
        stall = self.rebuffer_time - self.final_rebuffer_before
        return ev > 0 and stall < 1e-6


INT_METRICS = ('buffer size', 'total rebuffer events', 'over estimate count', 'leq estimate count')


def metrics_json(metrics):
    """snake_case keys; counts as ints, everything else as full-precision floats."""
    return {name.replace(' ', '_'): int(v) if name in INT_METRICS else float(v)
            for name, _, v in metrics}


def simulate(network_path, movie_path, algorithm, replace='none', out=None, **kw):
    with open(movie_path) as f, open(network_path) as g:
        s = Session(Movie(json.load(f)), json.load(g), algorithm, replace, out=out, **kw)
    return s, s.run()


# ------------------------------------------------------------------------------------------------
# CLI and batch
def run_batch(out_path):
    d, jobs, runs = DATA_DIR, [], []
    for set_name, sub, movie in (('3g', '3Glogs', 'bbb.json'), ('4g', '4Glogs', 'bbb4k.json')):
        for tr in sorted(glob.glob(os.path.join(d, 'mmsys18', sub, '*.json'))):
            jobs += [(set_name, tr, os.path.join(d, 'mmsys18', movie), a, 'none') for a in ALGORITHMS]
    ex = ('example', os.path.join(d, 'network.json'), os.path.join(d, 'movie.json'))
    jobs += [ex + (a, 'none') for a in ALGORITHMS] + [ex + ('bolae', 'left')]
    t0 = time.perf_counter()
    for set_name, tr, mv, a, rep in jobs:
        _, metrics = simulate(tr, mv, a, rep)
        runs.append({'trace': os.path.basename(tr), 'set': set_name, 'movie': os.path.basename(mv),
                     'algorithm': a, 'replace': rep, 'metrics': metrics_json(metrics)})
    elapsed = time.perf_counter() - t0
    set_order = {'3g': 0, '4g': 1, 'example': 2}
    runs.sort(key=lambda r: (set_order[r['set']], r['trace'], r['movie'], r['algorithm'], r['replace']))
    with open(out_path, 'w') as f:
        json.dump({'profile': 'sabre', 'runs': runs}, f, indent=1)
        f.write('\n')
    print('%d runs in %.2f s -> %s' % (len(runs), elapsed, out_path), file=sys.stderr)


def main(argv=None):
    p = argparse.ArgumentParser(description='Sabre reference implementation (from the spec).')
    p.add_argument('-n', '--network', default='network.json')
    p.add_argument('-m', '--movie', default='movie.json')
    p.add_argument('-a', '--abr', default='bolae', choices=ALGORITHMS)
    p.add_argument('-r', '--replace', default='none', choices=['none', 'left', 'right'])
    p.add_argument('-noa', '--no-abandon', action='store_true')
    p.add_argument('-b', '--max-buffer', type=float, default=25)
    p.add_argument('-nm', '--network-multiplier', type=float, default=1)
    p.add_argument('-gp', '--gamma-p', type=float, default=5)
    p.add_argument('-ma', '--moving-average', default='ewma', choices=['ewma', 'sliding'])
    p.add_argument('--json', action='store_true')
    p.add_argument('--batch', metavar='OUT.json')
    a = p.parse_args(argv)
    if a.batch:
        return run_batch(a.batch)
    out = sys.stderr if a.json else sys.stdout
    s, metrics = simulate(a.network, a.movie, a.abr, a.replace, out=out,
                          abandon=not a.no_abandon, buffer_seconds=a.max_buffer,
                          multiplier=a.network_multiplier, gp=a.gamma_p,
                          average=a.moving_average)
    if a.json:
        print(json.dumps(metrics_json(metrics)))
        return 0
    if hasattr(s.abr, 'buffer_target'):  # bolae / dynamicdash: extra first line (§8.2)
        print(s.abr.buffer_target)
    for name, fmt, value in metrics:
        print(('%s: ' + fmt) % (name, value))
    return 0


if __name__ == '__main__':
    sys.exit(main())
