"""Rebuild the two font subsets committed beside this file (run by hand; not needed at runtime).

Why subsets: a full Noto CJK face is 15-20 MB; the images need a few hundred glyphs. The subsets
are derivatives of Noto Serif CJK TC Bold / Noto Sans CJK TC Bold (SIL OFL 1.1, see OFL.txt), made
with fontTools from Debian's ``fonts-noto-cjk`` package::

    apt-get install -y fonts-noto-cjk
    pip install fonttools
    python render/fonts/build_subset.py [--rules ../shared/rules]

* ``tiles.otf`` (serif, the carved look of real tiles): only the characters painted on tiles.
* ``ui.otf`` (sans, readable at small sizes): labels (every character of ``render/labels.py``),
  ASCII, and every CJK character of the rule documents, so that any scoring item name (written exactly as the rules write it) can be shown.
  The characters used are written to ``ui_chars.txt`` so a rebuild without the rules folder gives
  the same font.
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOTO_DIR = Path("/usr/share/fonts/opentype/noto")
TC_INDEX = 3  # face order in the .ttc files: JP, KR, SC, TC, HK

TILE_CHARS = "一二三四五六七八九萬筒索東南西北中發白春夏秋冬梅蘭菊竹0123456789"
LABEL_CHARS = (
    "莊連聽胡自摸台番流局圈剩張風家輪到代打放槍和荒總計合贏輸分點數底本場第手牌花槓吃碰"
    "明暗加摃聽牌中發白東南西北春夏秋冬梅蘭菊竹萬筒索條一二三四五六七八九十零"
    "庄连听杠风东发万条计总赢输门"
    "×·•–—…→←↑↓▲▼★☆「」『』（）【】：，。！？＋－＝／％"
)
ASCII = "".join(chr(c) for c in range(0x20, 0x7F))


def _rules_chars(folder: Path) -> set[str]:
    chars: set[str] = set()
    for path in sorted(folder.glob("*.txt")):
        chars |= {c for c in path.read_text(encoding="utf-8") if ord(c) >= 0x2E80}
    return chars


def _subset(ttc: Path, text: str, out: Path) -> int:
    from fontTools import subset
    from fontTools.ttLib import TTCollection

    face = TTCollection(str(ttc)).fonts[TC_INDEX]
    buf = io.BytesIO()
    face.save(buf)  # one face out of the collection, so the subsetter sees a plain OTF
    buf.seek(0)
    options = subset.Options()
    options.layout_features = []  # no vertical forms, ligatures etc.: we draw single glyphs
    options.notdef_outline = True  # a visible box rather than nothing for missing glyphs
    options.name_IDs = ["*"]  # keep the copyright, licence and trademark records
    options.hinting = False
    font = subset.load_font(buf, options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    font.save(str(out))
    return out.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rules", type=Path, help="folder of rule documents whose characters to include")
    parser.add_argument("--noto", type=Path, default=NOTO_DIR)
    args = parser.parse_args()

    chars_file = HERE / "ui_chars.txt"
    ui = set(ASCII) | set(LABEL_CHARS) | set(TILE_CHARS)
    ui |= {c for c in (HERE.parent / "labels.py").read_text(encoding="utf-8") if ord(c) > 0x7F}
    if chars_file.exists():
        ui |= set(chars_file.read_text(encoding="utf-8").replace("\n", ""))
    if args.rules:
        ui |= _rules_chars(args.rules)
    ui_text = "".join(sorted(ui))
    chars_file.write_text(
        "\n".join(ui_text[i : i + 64] for i in range(0, len(ui_text), 64)) + "\n", encoding="utf-8"
    )

    n = _subset(args.noto / "NotoSerifCJK-Bold.ttc", TILE_CHARS + " ", HERE / "tiles.otf")
    print(f"tiles.otf: {len(TILE_CHARS)} characters, {n / 1024:.1f} KB")
    n = _subset(args.noto / "NotoSansCJK-Bold.ttc", ui_text, HERE / "ui.otf")
    print(f"ui.otf: {len(ui_text)} characters, {n / 1024:.1f} KB")


if __name__ == "__main__":
    main()
