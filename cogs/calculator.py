"""/tai: the 台數 calculator in Discord. A thin shell over ``engine.score.calculate`` — the same
function behind ``python -m engine.score`` — so the bot never re-implements a rule."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine.score import RequestError, calculate
from engine.scoring import ScoringError
from engine.tiles import NotationError

WINDS = [
    app_commands.Choice(name=n, value=v)
    for n, v in (("東 E", "E"), ("南 S", "S"), ("西 W", "W"), ("北 N", "N"))
]


class Calculator(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="tai", description="Count the 台 of a taiwan16 winning hand (tile notation)")
    @app_commands.describe(
        hand="concealed tiles without the winning tile, e.g. 123456789m456p3455s",
        win="the winning tile, e.g. 2s",
        melds="declared melds, e.g. pon:555z chi:123m",
        flowers="flowers, e.g. f1f5",
        self_drawn="won by self-draw (自摸)",
        seat_wind="your seat wind",
        round_wind="the round wind",
        dealer="you are the dealer (莊家)",
        streak="the dealer's streak n (連n)",
    )
    @app_commands.choices(seat_wind=WINDS, round_wind=WINDS)
    async def tai(
        self,
        interaction: discord.Interaction,
        hand: str,
        win: str,
        melds: str = "",
        flowers: str = "",
        self_drawn: bool = False,
        seat_wind: app_commands.Choice[str] | None = None,
        round_wind: app_commands.Choice[str] | None = None,
        dealer: bool = False,
        streak: app_commands.Range[int, 0, 8] = 0,
    ) -> None:
        request = {
            "rules": "taiwan16",
            "concealed": hand,
            "win_tile": win,
            "melds": melds.replace(",", " ").split(),
            "flowers": flowers,
            "self_drawn": self_drawn,
            "seat_wind": seat_wind.value if seat_wind else "E",
            "round_wind": round_wind.value if round_wind else "E",
            "dealer": dealer,
            "dealer_streak": streak,
        }
        try:
            result = calculate(request)
        except (RequestError, ScoringError, NotationError) as error:
            await interaction.response.send_message(
                f"I could not read that hand: {error}. Tiles look like `123m456p77z`, melds like `pon:555z`.",
                ephemeral=True,
            )
            return
        await interaction.response.send_message(embed=result_embed(hand, win, result), ephemeral=True)


def result_embed(hand: str, win: str, result: dict) -> discord.Embed:
    if not result["valid"]:
        return discord.Embed(
            title="Not a winning hand", description=result["reason"], colour=discord.Colour.red()
        )
    lines = [f"{item['name']} — {item['tai']} 台" for item in result["items"]] or ["(no 台 items)"]
    embed = discord.Embed(
        title=f"{result['total']} 台", description="\n".join(lines), colour=discord.Colour.green()
    )
    embed.set_footer(text=f"{hand} + {win}")
    return embed


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Calculator(bot))
