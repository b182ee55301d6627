# SPDX-License-Identifier: GPL-2.0
# Sphinx configuration for abidep's documentation: make htmldocs.
#
# kernel-doc comments are pulled from the module's headers by the kernel's
# own Sphinx extensions (kerneldoc.py, kernel_abi.py) and scripts
# (scripts/kernel-doc, scripts/get_abi.pl), taken from a kernel source tree:
# $ABIDEP_KERNEL_SRC if set, otherwise the 6.12 tree that
# scripts/linux-source.sh unpacks from Debian's linux-source-6.12 (make deps
# installs it).
import os
import subprocess
import sys

repo = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))


def kernel_source():
    src = os.environ.get('ABIDEP_KERNEL_SRC')
    if not src:
        r = subprocess.run([os.path.join(repo, 'scripts/linux-source.sh'), '6.12'],
                           stdout=subprocess.PIPE, text=True)
        if r.returncode:
            sys.exit('conf.py: no kernel source tree for kernel-doc: run make deps, '
                     'or set ABIDEP_KERNEL_SRC to a kernel source tree')
        src = r.stdout.strip()
    for f in ('Documentation/sphinx/kerneldoc.py', 'scripts/kernel-doc',
              'scripts/get_abi.pl'):
        if not os.path.exists(os.path.join(src, f)):
            sys.exit(f'conf.py: {src}/{f} is missing: run make deps, '
                     'or set ABIDEP_KERNEL_SRC to a kernel source tree')
    return src


ksrc = kernel_source()
sys.path.insert(0, os.path.join(ksrc, 'Documentation/sphinx'))

# kernel_abi.py runs $srctree/scripts/get_abi.pl on
# $srctree/Documentation/<dir>: a tree of two links, the kernel's scripts
# and our Documentation.
abi_tree = os.path.join(repo, 'build/htmldocs-srctree')
os.makedirs(abi_tree, exist_ok=True)
for name, target in (('scripts', os.path.join(ksrc, 'scripts')),
                     ('Documentation', os.path.join(repo, 'Documentation'))):
    link = os.path.join(abi_tree, name)
    if os.path.islink(link) and os.readlink(link) != target:
        os.unlink(link)
    if not os.path.islink(link):
        os.symlink(target, link)
os.environ['srctree'] = abi_tree

# A kernel-doc warning (an undocumented member or parameter) fails the
# build, as Sphinx's own warnings do under -W.
os.environ['KDOC_WERROR'] = '1'

project = 'abidep'
copyright = 'The abidep developers'
release = '0.1'

extensions = ['kerneldoc', 'kernel_abi']
kerneldoc_bin = os.path.join(ksrc, 'scripts/kernel-doc')
kerneldoc_srctree = repo

# As the kernel's conf.py: attributes Sphinx's C parser must skip.
c_id_attributes = ['__printf', '__must_check', '__init', '__user', '__iomem']

primary_domain = 'c'
highlight_language = 'none'
# man/*.rst are rst2man's sources too (make man): their docinfo fields
# (:Manual section: ...) are metadata here.
exclude_patterns = []
html_theme = 'alabaster'
html_show_sourcelink = False
html_copy_source = False
