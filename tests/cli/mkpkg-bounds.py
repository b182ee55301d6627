#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Hostile packages for the bounds of `abidep scan --packages`: small files
that cost much to read. Used by tests/cli/packages.sh; the small variants
also seed the fuzzer (tests/fuzz/pkg.harness).

  mkpkg-bounds.py OUT.deb links N LEN [K]
                                          N hard links, names of LEN bytes,
                                          to a file of K hits (default 1)
  mkpkg-bounds.py OUT.deb pairs N        N files with a hit, each followed
                                          by a hard link to it and a link
                                          to that link
  mkpkg-bounds.py OUT.deb dumpdir N SIZE N GNU dumpdir ('D') entries of
                                          SIZE bytes of data each
  mkpkg-bounds.py OUT.deb elf SIZE       an ELF member of SIZE bytes, a
                                          sparse file (GNU tar --sparse):
                                          a hit in .rodata, another in
                                          .debug_str, zeros between
  mkpkg-bounds.py OUT.rpm rpm-links N LEN RPM
                                          an rpm (RPM's lead and headers)
                                          whose cpio payload is one file
                                          with a hit under N names of LEN
                                          bytes (its bytes with the last)

Each has one ordinary file with a hit, /usr/bin/ok (/usr/bin/ok0 in an
rpm), so that a package read has something to show.
"""
import io
import lzma
import os
import struct
import subprocess
import sys
import tarfile
import tempfile
import zlib

HIT = b'#!/bin/sh\ncat /sys/class/rc/rc0/current_protocol\n'
R = tarfile.REGTYPE


def control(name):
    return (b'Package: %s\nVersion: 1.0\nArchitecture: all\n'
            b'Maintainer: Bounds <bounds@example.org>\nDescription: x\n') % name.encode()


def tar_bytes(members):
    """A GNU tar of (name, data, type, linkname): data bytes, or for 'D'
    an int, the size of its data (zeros)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode='w', format=tarfile.GNU_FORMAT) as t:
        for name, data, kind, link in members:
            ti = tarfile.TarInfo(name)
            ti.type, ti.linkname, ti.mode, ti.mtime = kind, link, 0o755, 1700000000
            if kind == R:
                ti.size = len(data)
                t.addfile(ti, io.BytesIO(data))
            elif kind == b'D':
                # tarfile writes a typed entry's data as given (size and all).
                ti.size = data
                t.addfile(ti, io.BytesIO(bytes(data)))
            else:
                t.addfile(ti)
    return buf.getvalue()


def ar(out, members):
    with open(out, 'wb') as f:
        f.write(b'!<arch>\n')
        for name, data in members:
            f.write(b'%-16s%-12d%-6d%-6d%-8o%-10d`\n' % (name.encode(), 1700000000, 0, 0,
                                                         0o100644, len(data)))
            f.write(data)
            if len(data) & 1:
                f.write(b'\n')


def deb(out, name, data_tar):
    ctl = lzma.compress(tar_bytes([('./control', control(name), R, '')]), preset=0)
    ar(out, [('debian-binary', b'2.0\n'), ('control.tar.xz', ctl),
             ('data.tar.xz', data_tar)])


def xz(b):
    return lzma.compress(b, preset=0)


def links(out, n, length, hits):
    pad = 'l' * max(1, length - len('./usr/share/l/') - 8)
    m = [('./usr/bin/ok', HIT * hits, R, '')]
    for i in range(n):
        m.append(('./usr/share/l/%s%08d' % (pad, i), b'', tarfile.LNKTYPE, './usr/bin/ok'))
    deb(out, 'links', xz(tar_bytes(m)))


def pairs(out, n):
    m = [('./usr/bin/ok', HIT, R, '')]
    for i in range(n):
        m.append(('./usr/share/p/f%d' % i, HIT, R, ''))
        m.append(('./usr/share/p/l%d' % i, b'', tarfile.LNKTYPE, './usr/share/p/f%d' % i))
        m.append(('./usr/share/p/m%d' % i, b'', tarfile.LNKTYPE, './usr/share/p/l%d' % i))
    deb(out, 'pairs', xz(tar_bytes(m)))


def dumpdir(out, n, size):
    m = [('./usr/bin/ok', HIT, R, '')]
    for i in range(n):
        m.append(('./usr/share/d%d/' % i, size, b'D', ''))
    deb(out, 'dumpdir', xz(tar_bytes(m)))


def elf(size):
    """A little-endian ELF64 shared object of @size bytes: .rodata with a
    path, a .data of zeros to the end, .debug_str with another path (a
    section the search leaves out), .shstrtab, the section table last."""
    shstr = b'\0.rodata\0.data\0.debug_str\0.shstrtab\0'
    off = lambda s: shstr.index(s + b'\0')
    rodata = b'\0cat /sys/class/rc/rc0/current_protocol\0'
    debug = b'\0/sys/class/rc/rc1/current_protocol\0'
    tail = debug + shstr
    shnum = 5
    shoff = size - shnum * 64
    ro_off, data_off = 64, 64 + len(rodata)
    dbg_off = shoff - len(tail)
    str_off = dbg_off + len(debug)
    head = struct.pack('<4sBBBBB7sHHIQQQIHHHHHH', b'\x7fELF', 2, 1, 1, 0, 0, bytes(7),
                       3, 62, 1, 0, 0, shoff, 0, 64, 0, 0, 64, shnum, 4)

    def sh(name, kind, flags, o, n):
        return struct.pack('<IIQQQQIIQQ', name, kind, flags, 0, o, n, 0, 0, 1, 0)
    shdrs = (bytes(64) + sh(off(b'.rodata'), 1, 2, ro_off, len(rodata)) +
             sh(off(b'.data'), 1, 3, data_off, dbg_off - data_off) +
             sh(off(b'.debug_str'), 1, 0x30, dbg_off, len(debug)) +
             sh(off(b'.shstrtab'), 3, 0, str_off, len(shstr)))
    return head + rodata, dbg_off, tail + shdrs


def elf_deb(out, size):
    """The ELF file written sparse, tarred by GNU tar --sparse: a few KB."""
    start, at, end = elf(size)
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(d + '/usr/lib')
        os.makedirs(d + '/usr/bin')
        with open(d + '/usr/lib/libbig.so', 'wb') as f:
            f.write(start)
            f.seek(at)
            f.write(end)
        with open(d + '/usr/bin/ok', 'wb') as f:
            f.write(HIT)
        t = subprocess.run(['tar', '--sparse', '--format=gnu', '--owner=0', '--group=0',
                            '--mtime=@1700000000', '-C', d, '-cf', '-',
                            './usr/bin/ok', './usr/lib/libbig.so'],
                           check=True, stdout=subprocess.PIPE).stdout
    deb(out, 'elf', xz(t))


def newc(name, ino, nlink, data):
    name = name.encode() + b'\0'
    h = b'070701' + b''.join(b'%08X' % v for v in (
        ino, 0o100755, 0, 0, nlink, 1700000000, len(data), 0, 0, 0, 0, len(name), 0))
    h += name
    h += bytes(-len(h) % 4)
    return h + data + bytes(-len(data) % 4)


def rpm_links(out, n, length, rpm):
    """The lead and both headers of @rpm, then a gzip'd cpio payload."""
    d = open(rpm, 'rb').read()
    il, dl = struct.unpack_from('>II', d, 96 + 8)
    h = (96 + 16 + 16 * il + dl + 7) & ~7
    il, dl = struct.unpack_from('>II', d, h + 8)
    head = d[:h + 16 + 16 * il + dl]
    pad = 'l' * max(1, length - len('./usr/share/l/') - 8)
    c = [newc('./usr/bin/ok0', 1, 1, HIT)]
    for i in range(n):
        c.append(newc('./usr/share/l/%s%08d' % (pad, i), 2, n,
                      HIT if i == n - 1 else b''))
    c.append(newc('TRAILER!!!', 0, 1, b''))
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    with open(out, 'wb') as f:
        f.write(head + z.compress(b''.join(c)) + z.flush())


def main(a):
    out, v = a[1], a[2]
    if v == 'links':
        links(out, int(a[3]), int(a[4]), int(a[5]) if len(a) > 5 else 1)
    elif v == 'pairs':
        pairs(out, int(a[3]))
    elif v == 'dumpdir':
        dumpdir(out, int(a[3]), int(a[4]))
    elif v == 'elf':
        elf_deb(out, int(a[3]))
    elif v == 'rpm-links':
        rpm_links(out, int(a[3]), int(a[4]), a[5])
    else:
        sys.exit('mkpkg-bounds.py: no variant ' + v)


main(sys.argv)
