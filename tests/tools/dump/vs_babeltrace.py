#!/usr/bin/env python3
# tests/tools/dump/vs_babeltrace.py [--dump PATH] DIR... (used by tests/tools/t_dump.sh)
#
# Checks that tracepoint-dump and babeltrace2 read the same events from a
# trace directory: per thread, the same sequence of events with the same
# names and field values, and the same timestamps to the nanosecond (both
# convert the clock offset and the value to ns separately, in floating
# point, as babeltrace2 does).
#
# Fields are compared through --json (every field, raw) and, for the
# name=value tokens of the --text line that name a field, through --text.
# Exit status 0 when everything agrees.
import json
import re
import subprocess
import sys
from collections import defaultdict

BT_LINE = re.compile(r'^\[(\d+)\.(\d{9})\] \(\S+\) (\S+) (\S+): (.*)$')


class BtParser:
    """babeltrace2's pretty field text: { a = 1, b = "x", c = [ [0] = 1 ] }"""

    def __init__(self, s):
        self.s, self.i = s, 0

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] == ' ':
            self.i += 1

    def value(self):
        self.ws()
        c = self.s[self.i]
        if c == '{':
            self.i += 1
            d = {}
            self.ws()
            if self.s[self.i] == '}':
                self.i += 1
                return d
            while True:
                self.ws()
                m = re.compile(r'[A-Za-z_][A-Za-z0-9_]*').match(self.s, self.i)
                k = m.group(0)
                self.i = m.end()
                self.ws()
                assert self.s[self.i] == '='
                self.i += 1
                d[k] = self.value()
                self.ws()
                if self.s[self.i] == ',':
                    self.i += 1
                    continue
                assert self.s[self.i] == '}'
                self.i += 1
                return d
        if c == '[':
            self.i += 1
            v = []
            while True:
                self.ws()
                if self.s[self.i] == ']':
                    self.i += 1
                    return v
                m = re.compile(r'\[\d+\] = ').match(self.s, self.i)
                self.i = m.end()
                v.append(self.value())
                self.ws()
                if self.s[self.i] == ',':
                    self.i += 1
        if c == '"':
            j = self.i + 1
            out = []
            while self.s[j] != '"':
                if self.s[j] == '\\':
                    j += 1
                    out.append({'n': '\n', 't': '\t', 'r': '\r'}.get(self.s[j], self.s[j]))
                else:
                    out.append(self.s[j])
                j += 1
            self.i = j + 1
            return ''.join(out)
        m = re.compile(r'[-+0-9A-Za-z_.x]+').match(self.s, self.i)
        self.i = m.end()
        t = m.group(0)
        if t.lower().startswith(('0x', '-0x')):
            return int(t, 16)
        try:
            return int(t)
        except ValueError:
            return float(t)


def bt_events(d):
    out = subprocess.run(['babeltrace2', '--clock-seconds', d], capture_output=True, text=True,
                         errors='surrogateescape')
    if out.returncode:
        sys.exit('babeltrace2 failed on %s:\n%s' % (d, out.stderr[-2000:]))
    ev = defaultdict(list)
    for line in out.stdout.splitlines():
        m = BT_LINE.match(line)
        if not m:
            continue
        ns = int(m.group(1)) * 10**9 + int(m.group(2))
        name = m.group(4)
        p = BtParser(m.group(5))
        ctx = p.value()
        p.ws()
        fields = {}
        if p.i < len(p.s) and p.s[p.i] == ',':
            p.i += 1
            fields = p.value()
        ev[ctx['tid']].append((ns, name, fields))
    return ev


def norm(v):
    if isinstance(v, str) and v.startswith('0x'):
        return int(v, 16)
    if isinstance(v, list):
        return [norm(x) for x in v]
    return v


def dump_json(dump, d):
    out = subprocess.run([dump, '--json', d], capture_output=True, text=True)
    doc = json.loads(out.stdout)
    origin = int(doc['otherData']['time_origin_unix_ns'])
    ev = defaultdict(list)
    for e in doc['traceEvents']:
        if e['ph'] != 'i' or e['cat'] == 'tracepoints':
            continue
        us, _, frac = ('%.3f' % e['ts']).partition('.')
        ev[e['tid']].append((e['cat'] + ':' + e['name'], {k: norm(v) for k, v in e['args'].items()}))
    return ev, out.returncode


def dump_text(dump, d):
    out = subprocess.run([dump, d], capture_output=True, text=True, errors='surrogateescape')
    ev = defaultdict(list)
    for line in out.stdout.splitlines():
        if line.startswith('#'):
            continue
        t, tid, name, *rest = line.split(' ', 3)
        s, ns = t.split('.')
        toks = {}
        for tok in (rest[0].split(' ') if rest else []):
            k, eq, v = tok.partition('=')
            if eq:
                toks[k] = v
        ev[int(tid)].append((int(s) * 10**9 + int(ns), name, toks))
    return ev, out.returncode


def same(a, b):
    # babeltrace2 prints floating point fields with 6 significant digits
    if isinstance(a, float) or isinstance(b, float):
        a, b = float(a), float(b)
        if a != a or b != b:
            return a != a and b != b
        return a == b or abs(a - b) <= 1e-5 * max(abs(a), abs(b))
    return a == b


def main():
    args = sys.argv[1:]
    dump = './tracepoint-dump'
    if len(args) >= 2 and args[0] == '--dump':
        dump, args = args[1], args[2:]
    bad = 0
    for d in args:
        bt = bt_events(d)
        js, rcj = dump_json(dump, d)
        tx, rct = dump_text(dump, d)
        nbt = sum(map(len, bt.values()))
        ntx = sum(map(len, tx.values()))
        njs = sum(map(len, js.values()))
        problems = []
        if nbt != ntx or nbt != njs:
            problems.append('event counts: babeltrace2 %d, text %d, json %d' % (nbt, ntx, njs))
        maxdt = 0
        for tid, seq in bt.items():
            tseq, jseq = tx.get(tid, []), js.get(tid, [])
            for i, (ns, name, fields) in enumerate(seq):
                if i >= len(tseq) or i >= len(jseq):
                    problems.append('tid %d: only %d events in tracepoint-dump' % (tid, min(len(tseq), len(jseq))))
                    break
                tns, tname, toks = tseq[i]
                jname, jargs = jseq[i]
                maxdt = max(maxdt, abs(tns - ns))
                if tns != ns or tname != name or jname != name:
                    problems.append('tid %d event %d: %s@%d vs text %s@%d json %s' % (tid, i, name, ns, tname, tns, jname))
                if set(jargs) != set(fields) or not all(
                        (same(jargs[k], fields[k]) if not isinstance(fields[k], list)
                         else len(jargs[k]) == len(fields[k]) and all(map(same, jargs[k], fields[k])))
                        for k in fields):
                    problems.append('tid %d event %d (%s): fields %r vs json %r' % (tid, i, name, fields, jargs))
                for k, v in toks.items():  # text tokens that print a field as is
                    if k in fields and not isinstance(fields[k], (list, float)):
                        want = fields[k]
                        try:
                            got = int(v, 0) if isinstance(want, int) else v
                        except ValueError:
                            continue
                        if got != want and not (isinstance(want, int) and v == '(nil)' and want == 0):
                            problems.append('tid %d event %d (%s): text %s=%s vs %r' % (tid, i, name, k, v, want))
                if len(problems) > 20:
                    break
        print('%s: %d events (babeltrace2), text %d, json %d; max |dt| %d ns; %s' % (
            d, nbt, ntx, njs, maxdt, 'agree' if not problems else '%d problems' % len(problems)))
        for p in problems[:20]:
            print('   ', p)
        bad |= bool(problems)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
