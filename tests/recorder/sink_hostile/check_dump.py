#!/usr/bin/env python3
"""Checks tracepoint-dump's output of a trace made by `hostile strings`
(tests/recorder/t_sink_hostile.sh): recorded strings cannot forge lines or inject
terminal controls in text or --summary output, and JSON stays valid.

usage: check_dump.py DUMP TRACE_DIR STRINGS_FILE
STRINGS_FILE holds the program's "s <hex> a <hex>" lines: the strings it
recorded, in order, each as evx_text then evx_raw.
"""
import json
import re
import subprocess
import sys

COMM = b't\n[x]\\\x1b\x7f'  # the recording thread's name (hostile.c)


def utf8_len(b, i):
    """Length of the valid UTF-8 sequence at b[i], or 0."""
    c = b[i]
    if c < 0x80:
        return 1
    for k in (2, 3, 4):
        try:
            b[i:i + k].decode('utf-8')
            return k
        except UnicodeDecodeError:
            pass
    return 0


def esc(b):
    """docs/tracepoint-dump.md's text escaping."""
    out = []
    i = 0
    while i < len(b):
        c = b[i]
        if c == 0x5c:
            out.append('\\\\')
        elif c == 0x0a:
            out.append('\\n')
        elif c == 0x0d:
            out.append('\\r')
        elif c == 0x09:
            out.append('\\t')
        elif 0x20 <= c < 0x7f:
            out.append(chr(c))
        elif c >= 0x80 and utf8_len(b, i) > 1 and not 0x80 <= ord(b[i:i + utf8_len(b, i)].decode()) <= 0x9f:
            k = utf8_len(b, i)
            out.append(b[i:i + k].decode())
            i += k
            continue
        else:
            out.append('\\x%02x' % c)
        i += 1
    return ''.join(out)


def unesc(s):
    """The inverse of esc(): proves the escaping is unambiguous."""
    out = bytearray()
    i = 0
    while i < len(s):
        if s[i] != '\\':
            out += s[i].encode()
            i += 1
            continue
        n = s[i + 1]
        if n == 'x':
            out.append(int(s[i + 2:i + 4], 16))
            i += 4
            continue
        out += {'\\': b'\\', 'n': b'\n', 'r': b'\r', 't': b'\t'}[n]
        i += 2
    return bytes(out)


def jdec(b):
    """docs/tracepoint-dump.md: JSON keeps valid UTF-8, a byte that is not
    part of it becomes U+00XX."""
    out = []
    i = 0
    while i < len(b):
        k = utf8_len(b, i)
        if k:
            out.append(b[i:i + k].decode())
            i += k
        else:
            out.append(chr(b[i]))
            i += 1
    return ''.join(out)


def clean(what, out):
    """One line per record: no control byte but the newlines, valid UTF-8,
    no C1 control."""
    bad = [c for c in out if (c < 0x20 and c != 0x0a) or c == 0x7f]
    if bad:
        return '%s: raw control bytes %r' % (what, sorted(set(bad)))
    try:
        text = out.decode('utf-8')
    except UnicodeDecodeError as e:
        return '%s: not valid UTF-8 (%s)' % (what, e)
    c1 = [c for c in text if 0x80 <= ord(c) <= 0x9f]
    if c1:
        return '%s: raw C1 controls %r' % (what, c1)
    return None


def main():
    dump, trace, strings = sys.argv[1:4]
    recs = []
    with open(strings) as f:
        for line in f:
            p = line.split()
            if len(p) == 4 and p[0] == 's' and p[2] == 'a':
                recs.append(tuple(b'' if h == '-' else bytes.fromhex(h) for h in (p[1], p[3])))
    problems = []
    if len(recs) < 5:
        problems.append('only %d strings recorded' % len(recs))
    for s, a in recs:
        for x in (s, a, COMM):
            if unesc(esc(x)) != x:
                problems.append('escaping is not reversible for %r' % x)

    # text
    out = subprocess.run([dump, trace], capture_output=True).stdout
    p = clean('text', out)
    if p:
        problems.append(p)
    lines = out.split(b'\n')
    if lines and lines[-1] == b'':
        lines.pop()
    if len(lines) != 2 * len(recs):
        problems.append('text: %d lines for %d records' % (len(lines), 2 * len(recs)))
    head = re.compile(rb'^[0-9]+\.[0-9]{9} [0-9]+ (evx:evx_text|evx:evx_raw) ')
    for i, line in enumerate(lines):
        m = head.match(line)
        if not m:
            problems.append('text line %d is not an event line: %r' % (i + 1, line))
            continue
        if i // 2 >= len(recs):
            break
        s, a = recs[i // 2]
        if i % 2 == 0:
            want = 'evx:evx_text s=%s arr=%s' % (esc(s), esc(a))
        else:
            want = 'evx:evx_raw arr=%s n=%d s=%s' % (esc(a), i // 2, esc(s))
        got = line[m.start(1):].decode('utf-8', 'replace')
        if got != want:
            problems.append('text line %d:\n    got  %r\n    want %r' % (i + 1, got, want))

    # JSON
    r = subprocess.run([dump, '--json', trace], capture_output=True)
    try:
        doc = json.loads(r.stdout.decode('utf-8'))
    except (UnicodeDecodeError, ValueError) as e:
        problems.append('JSON does not load: %s' % e)
        doc = {'traceEvents': []}
    evs = [e for e in doc['traceEvents'] if e.get('cat') == 'evx']
    if len(evs) != 2 * len(recs):
        problems.append('JSON: %d events for %d records' % (len(evs), 2 * len(recs)))
    for i, e in enumerate(evs[:2 * len(recs)]):
        s, a = recs[i // 2]
        if e['args'].get('s') != jdec(s) or e['args'].get('arr') != jdec(a):
            problems.append('JSON event %d: %r, want s=%r arr=%r' % (i + 1, e['args'], jdec(s), jdec(a)))
    names = [e['args']['name'] for e in doc['traceEvents'] if e.get('name') == 'thread_name']
    if jdec(COMM) not in names:
        problems.append('JSON: thread name %r not in %r' % (jdec(COMM), names))

    # summary
    out = subprocess.run([dump, '--summary', trace], capture_output=True).stdout
    p = clean('summary', out)
    if p:
        problems.append(p)
    if esc(COMM).encode() not in out:
        problems.append('summary: the thread name is not shown as %r' % esc(COMM))

    for p in problems:
        print('FAIL:', p)
    if not problems:
        print('ok: %d strings: text (TP_printk and name=value) escaped, one line per record; '
              'JSON loads with every value; summary escaped' % len(recs))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
