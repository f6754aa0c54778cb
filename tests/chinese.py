"""What tells the two Chinese scripts apart and what full-width punctuation means, for the tests of
the catalogue (tests/cogs), of the pictures' words (tests/render) and of whole sandbox transcripts.

The scripts are told apart by OpenCC's character tables (the ``opencc-python-reimplemented`` package
of requirements-dev.txt ships them: TSCharacters.txt, Traditional → Simplified, and STCharacters.txt,
Simplified → Traditional). A character is Traditional-only when OpenCC simplifies it to another
character and does not list it as a Simplified character itself (裡 → 里; not 乾, which is also
Simplified); Simplified-only likewise (们; not 台, which Traditional writes too, nor Taiwan's 秘 and 么), and a few a mahjong
player reads as the other script's whatever OpenCC allows (:data:`DOMAIN_TRADITIONAL`)."""

from __future__ import annotations

import re
from importlib import resources


def _table(name: str) -> dict[str, list[str]]:
    text = resources.files("opencc").joinpath("dictionary", name).read_text(encoding="utf-8")
    table: dict[str, list[str]] = {}
    for line in text.splitlines():
        key, _, values = line.partition("\t")
        if len(key) == 1:
            table[key] = values.split()
    return table


# mahjong's own: characters both scripts may write elsewhere but a player reads as the other script's
# here (万 and 杠 are Simplified 萬 and 槓 at a mahjong table, 后 is 後), pairwise
DOMAIN_TRADITIONAL = "萬東發風條蘭槓聽莊連們這個說開關將點數戰規設請對還沒輪時間電腦離與為從會過當場頭體門龍雙國無純報獨寶燈車羅處賽積級應該實後來張讓選擇顯紀錄結計邊號碼圖觀網頁槍買馬"
DOMAIN_SIMPLIFIED = "万东发风条兰杠听庄连们这个说开关将点数战规设请对还没轮时间电脑离与为从会过当场头体门龙双国无纯报独宝灯车罗处赛积级应该实后来张让选择显纪录结计边号码图观网页枪买马"

_TS = _table("TSCharacters.txt")
_ST = _table("STCharacters.txt")
_ALSO_SIMPLIFIED = {c for c, forms in _ST.items() if c in forms}
# Taiwan's own forms of Traditional characters (OpenCC's TWVariants: 秘 for 祕, 么 for 幺, 裡 …)
_TAIWAN = {form for forms in _table("TWVariants.txt").values() for form in forms}
_ALSO_TRADITIONAL = {c for c, forms in _TS.items() if c in forms} | _TAIWAN
_TRADITIONAL = {c for c, forms in _TS.items() if c not in forms and c not in _ALSO_SIMPLIFIED}
_SIMPLIFIED = {c for c, forms in _ST.items() if c not in forms and c not in _ALSO_TRADITIONAL}
_BOTH = _TRADITIONAL & _SIMPLIFIED  # a handful of rare characters OpenCC maps both ways (緼, 藴 …)
TRADITIONAL_ONLY = frozenset((_TRADITIONAL - _BOTH) | set(DOMAIN_TRADITIONAL))
SIMPLIFIED_ONLY = frozenset((_SIMPLIFIED - _BOTH) | set(DOMAIN_SIMPLIFIED))

_CJK = "[\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]"
HALF_WIDTH = re.compile(f"{_CJK}\\s*[,;:?!()]|[,;:?!()]\\s*{_CJK}")  # "你好,世界", "（x)" …


def wrong_script(lang: str, text: str) -> str:
    """The characters of ``text`` that belong to the other script than ``lang``'s."""
    wrong = TRADITIONAL_ONLY if lang == "zh-CN" else SIMPLIFIED_ONLY
    return "".join(c for c in text if c in wrong)
