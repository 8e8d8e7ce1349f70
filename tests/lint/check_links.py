#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks every link and image of Markdown files: a relative link names a file or folder that exists, an
#anchor names a heading of the target file by GitHub's rules, an image is a file. With --index, every page of
the index's folder is linked from the index.

  check_links.py ROOT [--index PAGE] PATH...   PATH: a .md file or a folder of them, relative to ROOT
  check_links.py --self-test                   the checker against files with one fault each
"""
import os
import re
import sys
import tempfile

FENCE = re.compile(r'^ {0,3}(`{3,}|~{3,})')
ATX = re.compile(r'^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$')
SETEXT = re.compile(r'^ {0,3}(=+|-+)[ \t]*$')
# [text](target "title") and ![alt](target); the text may hold one level of brackets and span lines.
INLINE = re.compile(r'(!?)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)')
DEFINITION = re.compile(r'^ {0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$', re.M)
HTML_ANCHOR = re.compile(r'<a\s[^>]*(?:name|id)\s*=\s*"([^"]+)"', re.I)
SCHEME = re.compile(r'^[A-Za-z][A-Za-z0-9+.-]*:')


def prose_lines(text):
    """The lines outside fenced code blocks, each with its line number; None for a line inside one."""
    fence = None
    for number, line in enumerate(text.split('\n'), 1):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            yield number, None
        elif fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line.strip()[len(m.group(1)):]:
                fence = None
            yield number, None
        else:
            yield number, line


def without_code_spans(line):
    return re.sub(r'(`+)(.+?)\1', lambda m: ' ' * len(m.group(0)), line)


def rendered(heading):
    """A heading's text as GitHub renders it, for its anchor: links and images by their text, no code marks."""
    heading = re.sub(r'!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)', r'\1', heading)
    heading = re.sub(r'<[^>]+>', '', heading)
    return heading.replace('`', '')


def github_anchor(heading):
    text = rendered(heading).strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def anchors(text):
    """Every anchor of a Markdown text: its headings' (a repeated one gets -1, -2, ...) and HTML ones."""
    found = set()
    seen = {}
    previous = None
    for _, line in prose_lines(text):
        if line is None:
            previous = None
            continue
        heading = None
        m = ATX.match(line)
        if m:
            heading = m.group(2) or ''
        elif previous and previous.strip() and SETEXT.match(line) and not ATX.match(previous):
            heading = previous
        if heading is not None:
            base = github_anchor(heading)
            repeats = seen.get(base, 0)
            seen[base] = repeats + 1
            found.add(base if repeats == 0 else f'{base}-{repeats}')
        found.update(HTML_ANCHOR.findall(line))
        previous = line
    return found


def links(text):
    """(line, is_image, target) of every inline link and image and every link definition outside code."""
    lines = [line if line is not None else '' for _, line in prose_lines(text)]
    prose = '\n'.join(without_code_spans(line) for line in lines)
    for m in INLINE.finditer(prose):
        yield prose.count('\n', 0, m.start()) + 1, m.group(1) == '!', m.group(3)
    for m in DEFINITION.finditer(prose):
        yield prose.count('\n', 0, m.start()) + 1, False, m.group(2)


def check_file(root, path, cache):
    """The faults of one Markdown file, as 'path:line: what' sentences."""
    faults = []
    full = os.path.join(root, path)
    with open(full, encoding='utf-8') as f:
        text = f.read()
    for line, image, target in links(text):
        where = f'{path}:{line}'
        if not target:
            faults.append(f'{where}: an empty link')
            continue
        if SCHEME.match(target):
            continue
        file_part, _, anchor = target.partition('#')
        dest = os.path.normpath(os.path.join(os.path.dirname(full), file_part)) if file_part else full
        if not os.path.exists(dest):
            faults.append(f'{where}: {target}: {os.path.relpath(dest, root)} does not exist')
            continue
        if image and not os.path.isfile(dest):
            faults.append(f'{where}: image {target} is not a file')
            continue
        if anchor:
            if not dest.endswith('.md') or not os.path.isfile(dest):
                faults.append(f'{where}: {target}: an anchor into a file that is not Markdown')
                continue
            if dest not in cache:
                with open(dest, encoding='utf-8') as f:
                    cache[dest] = anchors(f.read())
            if anchor not in cache[dest]:
                faults.append(f'{where}: {target}: {os.path.relpath(dest, root)} has no heading with the anchor '
                              f'#{anchor}')
    return faults


def markdown_files(root, paths):
    files = []
    for path in paths:
        full = os.path.join(root, path)
        if os.path.isdir(full):
            files += sorted(os.path.join(path, name) for name in os.listdir(full) if name.endswith('.md'))
        else:
            files.append(path)
    return files


def check_index(root, index):
    """Every page in the index's folder is linked from the index."""
    full = os.path.normpath(os.path.join(root, index))
    folder = os.path.dirname(full)
    with open(full, encoding='utf-8') as f:
        linked = {os.path.normpath(os.path.join(folder, target.partition('#')[0]))
                  for _, _, target in links(f.read()) if target and not SCHEME.match(target)}
    return [f'{index}: does not link {os.path.relpath(os.path.join(folder, name), root)}'
            for name in sorted(os.listdir(folder))
            if name.endswith('.md') and os.path.normpath(os.path.join(folder, name)) not in linked | {full}]


def check(root, paths, index=None):
    cache = {}
    files = markdown_files(root, paths)
    faults = []
    for path in files:
        faults += check_file(root, path, cache)
    if index:
        faults += check_index(root, index)
    return files, faults


def self_test():
    """Each fault the checker exists for, caught; a file without one, passed."""
    pages = {
        'good.md': '# Title\n\n## The kill -9 probe\n\n## Power-loss: "max at risk"\n\n## Twice\n\n## Twice\n\n'
                   'See [probe](#the-kill--9-probe), [risk](other/page.md#power-loss-max-at-risk),\n'
                   '[the second](#twice-1), ![a shot](img.png), [a folder](other/), '
                   '[web](https://example.com/#x).\n\n```sh\n# not a heading [x](missing.md)\n```\n'
                   'and `[code](missing.md)` is no link.\n',
        'other/page.md': '# Page\n\n## Power-loss: "max at risk"\n\nBack to [the start](../good.md#title).\n',
        'img.png': '',
        'missing-file.md': '# A\n\n[gone](nowhere.md)\n',
        'missing-anchor.md': '# A\n\n[gone](other/page.md#no-such-heading)\n',
        'missing-image.md': '# A\n\n![gone](\n  shot.png)\n',
        'code-heading.md': '# A\n\n```\n# Hidden\n```\n\n[hidden](#hidden)\n',
        'twice.md': '# A\n\n## B\n\n## B\n\n[third](#b-2)\n',
        'multi-line.md': '# A\n\nA link [whose text\nspans lines](#nowhere).\n',
    }
    expect = {
        'good.md': None,
        'missing-file.md': 'nowhere.md does not exist',
        'missing-anchor.md': 'has no heading with the anchor #no-such-heading',
        'missing-image.md': 'shot.png does not exist',
        'code-heading.md': 'no heading with the anchor #hidden',
        'twice.md': 'no heading with the anchor #b-2',
        'multi-line.md': 'no heading with the anchor #nowhere',
    }
    failed = False
    with tempfile.TemporaryDirectory() as root:
        for name, text in pages.items():
            os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
            with open(os.path.join(root, name), 'w', encoding='utf-8') as f:
                f.write(text)
        for name, fault in expect.items():
            _, faults = check(root, [name])
            if fault is None and faults:
                print(f'FAIL: {name} should pass, got {faults}')
                failed = True
            elif fault is not None and not any(fault in f for f in faults):
                print(f'FAIL: {name} should report "{fault}", got {faults}')
                failed = True
        os.makedirs(os.path.join(root, 'book'))
        for name, text in {'index.md': '# I\n\n[one](one.md)\n', 'one.md': '# One\n', 'two.md': '# Two\n'}.items():
            with open(os.path.join(root, 'book', name), 'w', encoding='utf-8') as f:
                f.write(text)
        _, faults = check(root, ['book'], 'book/index.md')
        if faults != ['book/index.md: does not link book/two.md']:
            print(f'FAIL: the index check should find two.md unlinked, got {faults}')
            failed = True
    print('self-test: ' + ('FAILED' if failed else 'every fault caught, the good file passed'))
    return 1 if failed else 0


def main(argv):
    if argv[1:] == ['--self-test']:
        return self_test()
    args = argv[1:]
    if not args:
        print(__doc__)
        return 2
    root = args.pop(0)
    index = None
    if args[:1] == ['--index']:
        index = args[1]
        args = args[2:]
    files, faults = check(root, args, index)
    for fault in faults:
        print(fault)
    count = sum(1 for path in files for _ in links(open(os.path.join(root, path), encoding='utf-8').read()))
    print(f'{len(files)} files, {count} links: ' + (f'{len(faults)} broken' if faults else 'all good'))
    return 1 if faults else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
