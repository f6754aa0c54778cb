"""What tells the two Chinese scripts apart and what full-width punctuation means, for the tests of
the catalogue (tests/cogs) and of the pictures' words (tests/render)."""

from __future__ import annotations

import re

# Characters only one script writes, pairwise (萬/万, 東/东, 條/条 …): the other script writes the partner.
TRADITIONAL_ONLY = "萬東發風條蘭槓聽莊連們這個說開關將點數戰規設請對還沒輪時間電腦離與為從會過當場頭體門龍雙國無純報獨寶燈車羅處賽積級應該實後來張讓選擇顯紀錄結計邊號碼圖觀網頁槍買馬"
SIMPLIFIED_ONLY = "万东发风条兰杠听庄连们这个说开关将点数战规设请对还没轮时间电脑离与为从会过当场头体门龙双国无纯报独宝灯车罗处赛积级应该实后来张让选择显纪录结计边号码图观网页枪买马"

_CJK = "[\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]"
HALF_WIDTH = re.compile(f"{_CJK}\\s*[,;:?!()]|[,;:?!()]\\s*{_CJK}")  # "你好,世界", "（x)" …


def wrong_script(lang: str, text: str) -> str:
    """The characters of ``text`` that belong to the other script than ``lang``'s."""
    wrong = TRADITIONAL_ONLY if lang == "zh-CN" else SIMPLIFIED_ONLY
    return "".join(c for c in text if c in wrong)
