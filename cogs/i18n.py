"""Every string the bot shows, in one catalogue (en, zh-TW, zh-CN), and the translator Discord asks for
command names and descriptions. Other Discord languages fall back to English.

    >>> t("zh-TW", "err.not_your_turn")
    '還沒輪到你。'
    >>> t("fr", "err.not_your_turn")
    'It is not your turn.'
    >>> tile_label("zh-CN", 4)
    '五万'

台 item names are never translated: they stay as the rule document writes them.
"""

from __future__ import annotations

from typing import Any

from discord import Locale, app_commands

from engine.tiles import tile_name

SUPPORTED = ("en", "zh-TW", "zh-CN")
DEFAULT = "en"

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        # rule sets and levels
        "rules.taiwan16": "Taiwanese 16-tile",
        "rules.taiwan13": "Taiwanese 13-tile",
        "rules.hongkong": "Hong Kong",
        "rules.guangdong": "Guangdong",
        "ai.name": "AI {n}",
        # lobby
        "lobby.title": "🀄 Mahjong table · {rules}",
        "lobby.host": "Host: {host}",
        "lobby.seats": "Seats",
        "lobby.empty": "— empty —",
        "lobby.ai_seat": "🤖 {name}",
        "lobby.settings": "Settings",
        "lobby.rounds": "{n} round(s)",
        "lobby.turn": "turn {s}s",
        "lobby.claim": "claims {s}s",
        "lobby.stakes": "底 {base} / 台 {tai}",
        "lobby.locked": "🔒 password",
        "lobby.footer": "Join with the button or /mahjong join · the host starts",
        "lobby.started": "The match has started.",
        "lobby.closed": "This table is closed.",
        "btn.join": "Join",
        "btn.leave": "Leave",
        "btn.add_ai": "Add AI",
        "btn.start": "Start",
        "btn.close": "Close",
        "btn.show_hand": "Show my hand",
        "btn.take_back": "Take back control",
        "btn.win": "Win 胡",
        "btn.self_draw": "Self-draw 自摸",
        "btn.pon": "Pon 碰",
        "btn.kong": "Kong 槓 {tile}",
        "btn.chi": "Chi 吃 {tiles}",
        "btn.pass": "Pass 過",
        "btn.ready": "Ready 聽…",
        "btn.ready_with": "聽 {tile}",
        "btn.back": "Back",
        "modal.password.title": "Table password",
        "modal.password.label": "4-digit password",
        # answers
        "ok.joined": "You sit at the table.",
        "ok.left": "You left the table.",
        "ok.created": "Table opened.",
        "ok.ai_added": "An AI player sits down.",
        "ok.ai_removed": "An AI player leaves.",
        "ok.closed": "The table is closed.",
        "ok.table_posted": "Here is the table.",
        "ok.took_back": "You are playing again.",
        "ok.start": "Starting…",
        # errors (always polite, only to the person concerned)
        "err.no_table": "There is no table in this channel. Open one with /mahjong create.",
        "err.table_exists": "This channel already has a table. The host can close it with /mahjong close.",
        "err.already_seated": "You already sit at a table in <#{channel}>. Leave it first.",
        "err.table_full": "All four seats are taken.",
        "err.not_seated": "You are not seated at this table.",
        "err.not_host": "Only the host (or a member with Manage Server) can do that.",
        "err.wrong_password": "That password is not right.",
        "err.password_format": "The password is four digits, like 0427.",
        "err.not_lobby": "The match has already started.",
        "err.not_playing": "The match is not being played right now.",
        "err.need_human": "At least one person must sit at the table.",
        "err.no_ai_seat": "There is no AI seat to remove.",
        "err.stale": "That prompt is no longer current; your latest hand message has the live buttons.",
        "err.not_your_turn": "It is not your turn.",
        "err.not_your_seat": "These buttons belong to another player.",
        "err.table_over": "That table has finished.",
        "err.illegal": "You cannot do that now.",
        "err.not_auto": "You are already in control of your seat.",
        "err.guild_only": "Tables are opened in a server channel, not in DMs.",
        "err.internal": "Something went wrong on my side; the table is unharmed. Please try again.",
        # play
        "play.seat_draw": "**抓位 · seat draw**\n{lines}",
        "play.seat_line": "{wind} · {name}",
        "play.dice": "🎲 Dealer dice {dice} = {total} → **{name}** deals first.",
        "play.table": "**{round}風圈 · hand {n}**{streak} · {tiles} tiles left\n{status}",
        "play.status_turn": "▶ {name} to play{deadline}",
        "play.status_claim": "⏳ claims on {tile} from {name}{deadline}",
        "play.status_over": "Hand over.",
        "play.deadline": "ends <t:{ts}:R>",
        "play.dm_hand": "**Hand {n}** · {rules} · <#{channel}>",
        "play.dm_turn": "▶ **Your turn.** Discard a tile{deadline}",
        "play.dm_turn_ready": "▶ **Your turn** (聽 declared){deadline}",
        "play.dm_ready_pick": "Choose the tile to discard and declare 聽{deadline}",
        "play.dm_claim": "**{name}** discarded **{tile}**. Claim it?{deadline}",
        "play.dm_rob": "**{name}** adds a kong with **{tile}**. Rob it?{deadline}",
        "play.dm_wait": "Waiting for the others…",
        "play.dm_auto": "🤖 Your seat is auto-played (代打). Press the button to play again.",
        "play.dm_over": "Hand over. The result is in <#{channel}>.",
        "play.auto_on": "🤖 {name} is now auto-played (代打).",
        "play.auto_off": "🙋 {name} plays again.",
        "play.dm_failed": "{mention}, I cannot send you direct messages, so your seat is auto-played (代打). "
        "Press **Show my hand** on the table message to see your tiles and take back control.",
        "play.left": "{name} left; their seat is auto-played (代打).",
        "play.hand_win": "**{winner}** wins hand {n}: {total} {unit}.",
        "play.hand_self_draw": "**{winner}** self-draws hand {n}: {total} {unit}.",
        "play.hand_draw": "Hand {n} is a draw game (流局).",
        "play.cap_note": "paid as {paid}",
        "play.delta_line": "{name}: {delta:+d} → {score}",
        "play.match_over": "🏁 **Match over** · standings",
        "play.standing_line": "{rank}. {name} · {score}",
        "play.closed_mid": "The host closed the table; the match did not finish.",
        "play.storage_failing": "⚠ Results may not be saved right now; I keep the table in memory and retry.",
        "play.storage_ok": "✅ Saving works again; nothing was lost.",
        "play.resumed": "🔄 I restarted; this table resumes at hand {n}.",
        "unit.tai": "台",
        "unit.fan": "番",
        "unit.multiplier": "×",
        "wind.0": "East",
        "wind.1": "South",
        "wind.2": "West",
        "wind.3": "North",
    },
    "zh-TW": {
        "rules.taiwan16": "台灣十六張",
        "rules.taiwan13": "台灣十三張",
        "rules.hongkong": "香港麻將",
        "rules.guangdong": "廣東推倒胡",
        "ai.name": "電腦 {n}",
        "lobby.title": "🀄 麻將桌 · {rules}",
        "lobby.host": "桌主：{host}",
        "lobby.seats": "座位",
        "lobby.empty": "— 空位 —",
        "lobby.ai_seat": "🤖 {name}",
        "lobby.settings": "設定",
        "lobby.rounds": "{n} 圈",
        "lobby.turn": "出牌 {s} 秒",
        "lobby.claim": "吃碰 {s} 秒",
        "lobby.stakes": "底 {base} / 台 {tai}",
        "lobby.locked": "🔒 密碼桌",
        "lobby.footer": "按「入座」或用 /mahjong join · 由桌主開始",
        "lobby.started": "牌局已開始。",
        "lobby.closed": "這桌已關閉。",
        "btn.join": "入座",
        "btn.leave": "離座",
        "btn.add_ai": "加電腦",
        "btn.start": "開始",
        "btn.close": "關桌",
        "btn.show_hand": "看我的牌",
        "btn.take_back": "取回操作",
        "btn.win": "胡",
        "btn.self_draw": "自摸",
        "btn.pon": "碰",
        "btn.kong": "槓 {tile}",
        "btn.chi": "吃 {tiles}",
        "btn.pass": "過",
        "btn.ready": "聽牌…",
        "btn.ready_with": "聽 打{tile}",
        "btn.back": "返回",
        "modal.password.title": "牌桌密碼",
        "modal.password.label": "四位數密碼",
        "ok.joined": "你已入座。",
        "ok.left": "你已離座。",
        "ok.created": "牌桌已開。",
        "ok.ai_added": "一位電腦玩家入座。",
        "ok.ai_removed": "一位電腦玩家離座。",
        "ok.closed": "牌桌已關閉。",
        "ok.table_posted": "這是目前的牌桌。",
        "ok.took_back": "你已取回操作。",
        "ok.start": "開始中…",
        "err.no_table": "這個頻道沒有牌桌。用 /mahjong create 開一桌。",
        "err.table_exists": "這個頻道已經有一桌。桌主可用 /mahjong close 關桌。",
        "err.already_seated": "你已經坐在 <#{channel}> 的牌桌。請先離座。",
        "err.table_full": "四個座位都有人了。",
        "err.not_seated": "你沒有坐在這一桌。",
        "err.not_host": "只有桌主（或有「管理伺服器」權限的成員）可以這樣做。",
        "err.wrong_password": "密碼不正確。",
        "err.password_format": "密碼是四位數字，例如 0427。",
        "err.not_lobby": "牌局已經開始了。",
        "err.not_playing": "這桌目前沒有在打牌。",
        "err.need_human": "至少要有一位真人入座。",
        "err.no_ai_seat": "沒有電腦玩家可以移除。",
        "err.stale": "這個按鈕已經過期；請看你最新的手牌訊息。",
        "err.not_your_turn": "還沒輪到你。",
        "err.not_your_seat": "這些按鈕是別的玩家的。",
        "err.table_over": "這一桌已經結束了。",
        "err.illegal": "現在不能這樣做。",
        "err.not_auto": "你本來就在自己操作。",
        "err.guild_only": "牌桌要在伺服器頻道裡開，不能在私訊。",
        "err.internal": "我這邊出了點問題，牌局沒有受影響。請再試一次。",
        "play.seat_draw": "**抓位**\n{lines}",
        "play.seat_line": "{wind} · {name}",
        "play.dice": "🎲 起莊骰子 {dice} = {total} → **{name}** 做莊。",
        "play.table": "**{round}風圈 · 第 {n} 局**{streak} · 剩 {tiles} 張\n{status}",
        "play.status_turn": "▶ 輪到 {name}{deadline}",
        "play.status_claim": "⏳ {name} 打出 {tile}，等待吃碰胡{deadline}",
        "play.status_over": "本局結束。",
        "play.deadline": "<t:{ts}:R> 截止",
        "play.dm_hand": "**第 {n} 局** · {rules} · <#{channel}>",
        "play.dm_turn": "▶ **輪到你。** 請打一張牌{deadline}",
        "play.dm_turn_ready": "▶ **輪到你**（已聽牌）{deadline}",
        "play.dm_ready_pick": "選一張打出並宣告聽牌{deadline}",
        "play.dm_claim": "**{name}** 打出 **{tile}**。要吃碰胡嗎？{deadline}",
        "play.dm_rob": "**{name}** 用 **{tile}** 加槓。要搶槓嗎？{deadline}",
        "play.dm_wait": "等待其他玩家…",
        "play.dm_auto": "🤖 你的座位由系統代打。按下按鈕即可取回操作。",
        "play.dm_over": "本局結束，結果在 <#{channel}>。",
        "play.auto_on": "🤖 {name} 改由系統代打。",
        "play.auto_off": "🙋 {name} 取回操作。",
        "play.dm_failed": "{mention}，我無法私訊你，所以你的座位改由系統代打。"
        "請在牌桌訊息按「看我的牌」查看手牌並取回操作。",
        "play.left": "{name} 離開了，座位改由系統代打。",
        "play.hand_win": "**{winner}** 胡了第 {n} 局：{total} {unit}。",
        "play.hand_self_draw": "**{winner}** 自摸第 {n} 局：{total} {unit}。",
        "play.hand_draw": "第 {n} 局流局。",
        "play.cap_note": "實付 {paid}",
        "play.delta_line": "{name}：{delta:+d} → {score}",
        "play.match_over": "🏁 **牌局結束** · 排名",
        "play.standing_line": "{rank}. {name} · {score}",
        "play.closed_mid": "桌主關桌了，這場牌局沒有打完。",
        "play.storage_failing": "⚠ 目前可能無法儲存結果；牌局保留在記憶體中，我會持續重試。",
        "play.storage_ok": "✅ 儲存恢復正常，沒有遺失任何資料。",
        "play.resumed": "🔄 我重新啟動了；這一桌從第 {n} 局繼續。",
        "unit.tai": "台",
        "unit.fan": "番",
        "unit.multiplier": "倍",
        "wind.0": "東",
        "wind.1": "南",
        "wind.2": "西",
        "wind.3": "北",
    },
    "zh-CN": {
        "rules.taiwan16": "台湾十六张",
        "rules.taiwan13": "台湾十三张",
        "rules.hongkong": "香港麻将",
        "rules.guangdong": "广东推倒胡",
        "ai.name": "电脑 {n}",
        "lobby.title": "🀄 麻将桌 · {rules}",
        "lobby.host": "桌主：{host}",
        "lobby.seats": "座位",
        "lobby.empty": "— 空位 —",
        "lobby.ai_seat": "🤖 {name}",
        "lobby.settings": "设置",
        "lobby.rounds": "{n} 圈",
        "lobby.turn": "出牌 {s} 秒",
        "lobby.claim": "吃碰 {s} 秒",
        "lobby.stakes": "底 {base} / 台 {tai}",
        "lobby.locked": "🔒 密码桌",
        "lobby.footer": "按「入座」或用 /mahjong join · 由桌主开始",
        "lobby.started": "牌局已开始。",
        "lobby.closed": "这桌已关闭。",
        "btn.join": "入座",
        "btn.leave": "离座",
        "btn.add_ai": "加电脑",
        "btn.start": "开始",
        "btn.close": "关桌",
        "btn.show_hand": "看我的牌",
        "btn.take_back": "取回操作",
        "btn.win": "胡",
        "btn.self_draw": "自摸",
        "btn.pon": "碰",
        "btn.kong": "杠 {tile}",
        "btn.chi": "吃 {tiles}",
        "btn.pass": "过",
        "btn.ready": "听牌…",
        "btn.ready_with": "听 打{tile}",
        "btn.back": "返回",
        "modal.password.title": "牌桌密码",
        "modal.password.label": "四位数密码",
        "ok.joined": "你已入座。",
        "ok.left": "你已离座。",
        "ok.created": "牌桌已开。",
        "ok.ai_added": "一位电脑玩家入座。",
        "ok.ai_removed": "一位电脑玩家离座。",
        "ok.closed": "牌桌已关闭。",
        "ok.table_posted": "这是当前的牌桌。",
        "ok.took_back": "你已取回操作。",
        "ok.start": "开始中…",
        "err.no_table": "这个频道没有牌桌。用 /mahjong create 开一桌。",
        "err.table_exists": "这个频道已经有一桌。桌主可用 /mahjong close 关桌。",
        "err.already_seated": "你已经坐在 <#{channel}> 的牌桌。请先离座。",
        "err.table_full": "四个座位都有人了。",
        "err.not_seated": "你没有坐在这一桌。",
        "err.not_host": "只有桌主（或有「管理服务器」权限的成员）可以这样做。",
        "err.wrong_password": "密码不正确。",
        "err.password_format": "密码是四位数字，例如 0427。",
        "err.not_lobby": "牌局已经开始了。",
        "err.not_playing": "这桌目前没有在打牌。",
        "err.need_human": "至少要有一位真人入座。",
        "err.no_ai_seat": "没有电脑玩家可以移除。",
        "err.stale": "这个按钮已经过期；请看你最新的手牌消息。",
        "err.not_your_turn": "还没轮到你。",
        "err.not_your_seat": "这些按钮是别的玩家的。",
        "err.table_over": "这一桌已经结束了。",
        "err.illegal": "现在不能这样做。",
        "err.not_auto": "你本来就在自己操作。",
        "err.guild_only": "牌桌要在服务器频道里开，不能在私信。",
        "err.internal": "我这边出了点问题，牌局没有受影响。请再试一次。",
        "play.seat_draw": "**抓位**\n{lines}",
        "play.seat_line": "{wind} · {name}",
        "play.dice": "🎲 起庄骰子 {dice} = {total} → **{name}** 坐庄。",
        "play.table": "**{round}风圈 · 第 {n} 局**{streak} · 剩 {tiles} 张\n{status}",
        "play.status_turn": "▶ 轮到 {name}{deadline}",
        "play.status_claim": "⏳ {name} 打出 {tile}，等待吃碰胡{deadline}",
        "play.status_over": "本局结束。",
        "play.deadline": "<t:{ts}:R> 截止",
        "play.dm_hand": "**第 {n} 局** · {rules} · <#{channel}>",
        "play.dm_turn": "▶ **轮到你。** 请打一张牌{deadline}",
        "play.dm_turn_ready": "▶ **轮到你**（已听牌）{deadline}",
        "play.dm_ready_pick": "选一张打出并宣告听牌{deadline}",
        "play.dm_claim": "**{name}** 打出 **{tile}**。要吃碰胡吗？{deadline}",
        "play.dm_rob": "**{name}** 用 **{tile}** 加杠。要抢杠吗？{deadline}",
        "play.dm_wait": "等待其他玩家…",
        "play.dm_auto": "🤖 你的座位由系统代打。按下按钮即可取回操作。",
        "play.dm_over": "本局结束，结果在 <#{channel}>。",
        "play.auto_on": "🤖 {name} 改由系统代打。",
        "play.auto_off": "🙋 {name} 取回操作。",
        "play.dm_failed": "{mention}，我无法私信你，所以你的座位改由系统代打。"
        "请在牌桌消息按「看我的牌」查看手牌并取回操作。",
        "play.left": "{name} 离开了，座位改由系统代打。",
        "play.hand_win": "**{winner}** 胡了第 {n} 局：{total} {unit}。",
        "play.hand_self_draw": "**{winner}** 自摸第 {n} 局：{total} {unit}。",
        "play.hand_draw": "第 {n} 局流局。",
        "play.cap_note": "实付 {paid}",
        "play.delta_line": "{name}：{delta:+d} → {score}",
        "play.match_over": "🏁 **牌局结束** · 排名",
        "play.standing_line": "{rank}. {name} · {score}",
        "play.closed_mid": "桌主关桌了，这场牌局没有打完。",
        "play.storage_failing": "⚠ 目前可能无法保存结果；牌局保留在内存中，我会持续重试。",
        "play.storage_ok": "✅ 保存恢复正常，没有丢失任何数据。",
        "play.resumed": "🔄 我重新启动了；这一桌从第 {n} 局继续。",
        "unit.tai": "台",
        "unit.fan": "番",
        "unit.multiplier": "倍",
        "wind.0": "东",
        "wind.1": "南",
        "wind.2": "西",
        "wind.3": "北",
    },
}

# tile labels on buttons: what a player reads at a glance in their language
_EN_SUITS = ("Crak", "Dot", "Bam")
_EN_HONOURS = ("East", "South", "West", "North", "White", "Green", "Red")
_SIMPLIFIED = str.maketrans({"萬": "万", "東": "东", "發": "发", "蘭": "兰", "風": "风", "索": "条"})


def locale_of(value: Locale | str | None) -> str:
    """The catalogue locale for a Discord locale: zh-TW, zh-CN, else English."""
    text = str(value.value if isinstance(value, Locale) else value or "")
    if text == "zh-TW":
        return "zh-TW"
    if text == "zh-CN":
        return "zh-CN"
    return DEFAULT


def t(locale: str | Locale | None, key: str, **values: Any) -> str:
    """The string ``key`` in the reader's language (English when a string is missing there)."""
    lang = locale_of(locale)
    template = STRINGS[lang].get(key) or STRINGS[DEFAULT][key]
    return template.format(**values) if values else template


def tile_label(locale: str | Locale | None, tile: int) -> str:
    """A tile on a button: 五萬 / 五万 / 5 Crak."""
    lang = locale_of(locale)
    if lang == "en":
        if tile < 27:
            return f"{tile % 9 + 1} {_EN_SUITS[tile // 9]}"
        if tile < 34:
            return _EN_HONOURS[tile - 27]
        return f"Flower {tile - 33}"
    name = tile_name(tile)
    return name.translate(_SIMPLIFIED) if lang == "zh-CN" else name


# ---------------------------------------------------------------- command names and descriptions

COMMAND_TEXT: dict[str, dict[str, str]] = {
    "mahjong": {"zh-TW": "麻將", "zh-CN": "麻将"},
    "Mahjong tables in this server": {"zh-TW": "這個伺服器的麻將桌", "zh-CN": "这个服务器的麻将桌"},
    "create": {"zh-TW": "開桌", "zh-CN": "开桌"},
    "Open a mahjong table in this channel": {"zh-TW": "在這個頻道開一桌麻將", "zh-CN": "在这个频道开一桌麻将"},
    "join": {"zh-TW": "入座", "zh-CN": "入座"},
    "Take a seat at this channel's table": {"zh-TW": "在這個頻道的牌桌入座", "zh-CN": "在这个频道的牌桌入座"},
    "leave": {"zh-TW": "離座", "zh-CN": "离座"},
    "Leave this channel's table": {"zh-TW": "離開這個頻道的牌桌", "zh-CN": "离开这个频道的牌桌"},
    "start": {"zh-TW": "開始", "zh-CN": "开始"},
    "Start the match (host)": {"zh-TW": "開始牌局（桌主）", "zh-CN": "开始牌局（桌主）"},
    "close": {"zh-TW": "關桌", "zh-CN": "关桌"},
    "Close this channel's table (host)": {"zh-TW": "關閉這個頻道的牌桌（桌主）", "zh-CN": "关闭这个频道的牌桌（桌主）"},
    "table": {"zh-TW": "牌桌", "zh-CN": "牌桌"},
    "Post the current table image again": {"zh-TW": "重新貼出目前的牌桌圖", "zh-CN": "重新贴出当前的牌桌图"},
    "ai": {"zh-TW": "電腦", "zh-CN": "电脑"},
    "AI players at this table": {"zh-TW": "這一桌的電腦玩家", "zh-CN": "这一桌的电脑玩家"},
    "add": {"zh-TW": "加入", "zh-CN": "加入"},
    "Seat an AI player (host)": {"zh-TW": "讓電腦玩家入座（桌主）", "zh-CN": "让电脑玩家入座（桌主）"},
    "remove": {"zh-TW": "移除", "zh-CN": "移除"},
    "Remove an AI player (host)": {"zh-TW": "移除電腦玩家（桌主）", "zh-CN": "移除电脑玩家（桌主）"},
    "Rule set": {"zh-TW": "規則", "zh-CN": "规则"},
    "Rounds (圈), 1 to 4": {"zh-TW": "圈數，1 到 4", "zh-CN": "圈数，1 到 4"},
    "Seconds to discard": {"zh-TW": "出牌秒數", "zh-CN": "出牌秒数"},
    "Seconds to claim 吃碰槓胡": {"zh-TW": "吃碰槓胡的秒數", "zh-CN": "吃碰杠胡的秒数"},
    "Self-drawn wins only (限自摸)": {"zh-TW": "限自摸", "zh-CN": "限自摸"},
    "A win may be declined (可過水)": {"zh-TW": "可過水", "zh-CN": "可过水"},
    "Three 台 to win (三台起胡)": {"zh-TW": "三台起胡", "zh-CN": "三台起胡"},
    "Every wind and flower scores (見字見花)": {"zh-TW": "見字見花", "zh-CN": "见字见花"},
    "Points for 底": {"zh-TW": "底的點數", "zh-CN": "底的点数"},
    "Points per 台": {"zh-TW": "每台點數", "zh-CN": "每台点数"},
    "Ask players for a 4-digit password": {"zh-TW": "入座需要四位數密碼", "zh-CN": "入座需要四位数密码"},
    "The table's 4-digit password": {"zh-TW": "牌桌的四位數密碼", "zh-CN": "牌桌的四位数密码"},
    "AI strength": {"zh-TW": "電腦強度", "zh-CN": "电脑强度"},
}


class CatalogueTranslator(app_commands.Translator):
    """Command names and descriptions in zh-TW and zh-CN; Discord shows English elsewhere."""

    async def translate(
        self, string: app_commands.locale_str, locale: Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        lang = locale_of(locale)
        if lang == DEFAULT:
            return None
        text = COMMAND_TEXT.get(string.message, {}).get(lang)
        if text is None:  # choice names are catalogue strings (rule sets, levels)
            key = _ENGLISH_KEYS.get(string.message)
            text = STRINGS[lang].get(key) if key else None
        return text


_ENGLISH_KEYS = {text: key for key, text in STRINGS[DEFAULT].items() if "{" not in text}
