"""Chinese words in the reader's script. The engine names scoring items, house rules and settlement
lines exactly as the rule documents write them (DESIGN.md): Traditional for taiwan16 and hongkong
(莊家, 門清, 搶杠), Simplified where documents 001 and 004 use it (庄家, 门清, 买马). A reader of
zh-CN must never meet a Traditional character, nor a reader of zh-TW a Simplified one, so every such
word is shown through :func:`in_script`; English readers see it as the document writes it (with an
English gloss beside it where the words around it give one).

    >>> in_script("zh-CN", "莊家"), in_script("zh-TW", "庄家买马"), in_script("en", "门清")
    ('庄家', '莊家買馬', '门清')
    >>> in_script("zh-TW", "断么九"), in_script("zh-CN", "搶摃"), in_script("zh-TW", "見花有台")
    ('斷么九', '抢杠', '見花有台')

The table is character by character, written for the words this bot shows: Traditional to Simplified
is one-to-one for them; Simplified to Traditional is chosen as Taiwanese players write mahjong (杠 → 槓,
台 and Taiwan's 么 stay). Player names never go through it. Both render/ (the pictures) and cogs/ (the messages)
use it; tests/chinese.py checks it against OpenCC's character tables.
"""

from __future__ import annotations

# (Traditional, Simplified) pairs; the words of the rule documents, the house rules and the labels
_PAIRS = (
    "萬万 東东 發发 風风 條条 蘭兰 槓杠 摃杠 聽听 莊庄 連连 門门 開开 點点 數数 規规 對对 還还 時时 間间"
    " 電电 腦脑 離离 與与 為为 從从 會会 過过 當当 場场 頭头 體体 龍龙 雙双 國国 無无 純纯 獨独 寶宝"
    " 燈灯 車车 羅罗 處处 賽赛 積积 級级 應应 該该 實实 後后 來来 張张 讓让 選选 擇择 顯显 紀纪 錄录"
    " 結结 計计 邊边 號号 碼码 圖图 觀观 網网 頁页 槍枪 買买 馬马 搶抢 嚦呖 換换 撈捞 見见 雞鸡 魚鱼"
    " 華华 帶带 斷断 漢汉 蓮莲 綠绿 輪轮 順顺 們们 這这 個个 說说 關关 將将 戰战 設设 請请 沒没"
    " 種种 輸输 贏赢 勝胜 負负 絕绝 貫贯 臺台 齊齐 滿满 歸归 殺杀 賣卖 價价 錢钱"
    " 閒闲 傳传 給给 動动 線线 聯联 組组 總总 盤盘 壓压 隨随 單单 專专 兩两 筆笔 樣样 舉举 審审 嗎吗"
)
_T2S = {pair[0]: pair[1] for pair in _PAIRS.split()}
_S2T = {s: t for t, s in _T2S.items() if t not in ("摃", "臺")}  # 杠 → 槓 (not 摃), 台 stays
_TO_SIMPLIFIED = str.maketrans(_T2S)
_TO_TRADITIONAL = str.maketrans(_S2T)


def in_script(locale: object, text: str) -> str:
    """``text`` (a document word, a house-rule label, an engine line) in ``locale``'s script: Simplified
    for zh-CN, Traditional for zh-TW, as written for anything else."""
    lang = str(getattr(locale, "value", locale) or "")
    if lang in ("zh-CN", "zh-SG", "zh-Hans"):
        return text.translate(_TO_SIMPLIFIED)
    if lang.startswith("zh"):
        return text.translate(_TO_TRADITIONAL)
    return text
