"""The 100 picture cards of the Ogura Hyakunin Isshu, as Bozu Mekuri sees them (docs/bozu.md, "Cards").

Each card is one poem: its number (1-100), the poet's name as printed on the card, romanised
(Hepburn, with macrons) and in Japanese script, and its type on this site:

- ``noble``: an ordinary courtier (the two nyūdō poets, 76 and 96, are nobles here);
- ``emperor``: the seven emperors, nobles unless the ``emperor`` option says otherwise;
- ``lady``: the 21 women, Empress Jitō (2) among them;
- ``monk``: the 12 monks (hōshi, sōjō, daisōjō);
- ``semimaru``: Semimaru (10), who plays as the ``semimaru`` option says.

Pure data, no Django import; ``bozu.py`` and the fast simulator share it.
"""
from __future__ import annotations

from typing import NamedTuple

from games.engines.base import JSON

NOBLE, EMPEROR, LADY, MONK, SEMIMARU = "noble", "emperor", "lady", "monk", "semimaru"
CARD_TYPES = (NOBLE, EMPEROR, LADY, MONK, SEMIMARU)

# Poems by type, as docs/bozu.md lists them; every poem not listed is a plain noble.
MONK_POEMS = (8, 12, 21, 47, 66, 69, 70, 82, 85, 86, 87, 95)
LADY_POEMS = (2, 9, 19, 38, 53, 54, 56, 57, 58, 59, 60, 61, 62, 65, 67, 72, 80, 88, 89, 90, 92)
EMPEROR_POEMS = (1, 13, 15, 68, 77, 99, 100)
SEMIMARU_POEM = 10
NYUDO_POEMS = (76, 96)  # lay monks in court dress: nobles on this site


class Card(NamedTuple):
    poem: int
    poet: str
    poet_ja: str
    type: str

    def to_json(self) -> JSON:
        return {"poem": self.poem, "poet": self.poet, "poet_ja": self.poet_ja, "type": self.type}


# (poem, romanised name, name in Japanese script), in poem order.
_POETS = (
    (1, "Tenji Tennō", "天智天皇"),
    (2, "Jitō Tennō", "持統天皇"),
    (3, "Kakinomoto no Hitomaro", "柿本人麻呂"),
    (4, "Yamabe no Akahito", "山部赤人"),
    (5, "Sarumaru Dayū", "猿丸大夫"),
    (6, "Chūnagon Yakamochi", "中納言家持"),
    (7, "Abe no Nakamaro", "安倍仲麿"),
    (8, "Kisen Hōshi", "喜撰法師"),
    (9, "Ono no Komachi", "小野小町"),
    (10, "Semimaru", "蝉丸"),
    (11, "Sangi Takamura", "参議篁"),
    (12, "Sōjō Henjō", "僧正遍昭"),
    (13, "Yōzei-in", "陽成院"),
    (14, "Kawara no Sadaijin", "河原左大臣"),
    (15, "Kōkō Tennō", "光孝天皇"),
    (16, "Chūnagon Yukihira", "中納言行平"),
    (17, "Ariwara no Narihira Ason", "在原業平朝臣"),
    (18, "Fujiwara no Toshiyuki Ason", "藤原敏行朝臣"),
    (19, "Ise", "伊勢"),
    (20, "Motoyoshi Shinnō", "元良親王"),
    (21, "Sosei Hōshi", "素性法師"),
    (22, "Fun'ya no Yasuhide", "文屋康秀"),
    (23, "Ōe no Chisato", "大江千里"),
    (24, "Kanke", "菅家"),
    (25, "Sanjō Udaijin", "三条右大臣"),
    (26, "Teishin Kō", "貞信公"),
    (27, "Chūnagon Kanesuke", "中納言兼輔"),
    (28, "Minamoto no Muneyuki Ason", "源宗于朝臣"),
    (29, "Ōshikōchi no Mitsune", "凡河内躬恒"),
    (30, "Mibu no Tadamine", "壬生忠岑"),
    (31, "Sakanoue no Korenori", "坂上是則"),
    (32, "Harumichi no Tsuraki", "春道列樹"),
    (33, "Ki no Tomonori", "紀友則"),
    (34, "Fujiwara no Okikaze", "藤原興風"),
    (35, "Ki no Tsurayuki", "紀貫之"),
    (36, "Kiyohara no Fukayabu", "清原深養父"),
    (37, "Fun'ya no Asayasu", "文屋朝康"),
    (38, "Ukon", "右近"),
    (39, "Sangi Hitoshi", "参議等"),
    (40, "Taira no Kanemori", "平兼盛"),
    (41, "Mibu no Tadami", "壬生忠見"),
    (42, "Kiyohara no Motosuke", "清原元輔"),
    (43, "Gon-chūnagon Atsutada", "権中納言敦忠"),
    (44, "Chūnagon Asatada", "中納言朝忠"),
    (45, "Kentoku Kō", "謙徳公"),
    (46, "Sone no Yoshitada", "曾禰好忠"),
    (47, "Egyō Hōshi", "恵慶法師"),
    (48, "Minamoto no Shigeyuki", "源重之"),
    (49, "Ōnakatomi no Yoshinobu Ason", "大中臣能宣朝臣"),
    (50, "Fujiwara no Yoshitaka", "藤原義孝"),
    (51, "Fujiwara no Sanekata Ason", "藤原実方朝臣"),
    (52, "Fujiwara no Michinobu Ason", "藤原道信朝臣"),
    (53, "Udaishō Michitsuna no Haha", "右大将道綱母"),
    (54, "Gidō Sanshi no Haha", "儀同三司母"),
    (55, "Dainagon Kintō", "大納言公任"),
    (56, "Izumi Shikibu", "和泉式部"),
    (57, "Murasaki Shikibu", "紫式部"),
    (58, "Daini no Sanmi", "大弐三位"),
    (59, "Akazome Emon", "赤染衛門"),
    (60, "Koshikibu no Naishi", "小式部内侍"),
    (61, "Ise no Taifu", "伊勢大輔"),
    (62, "Sei Shōnagon", "清少納言"),
    (63, "Sakyō no Daibu Michimasa", "左京大夫道雅"),
    (64, "Gon-chūnagon Sadayori", "権中納言定頼"),
    (65, "Sagami", "相模"),
    (66, "Saki no Daisōjō Gyōson", "前大僧正行尊"),
    (67, "Suō no Naishi", "周防内侍"),
    (68, "Sanjō-in", "三条院"),
    (69, "Nōin Hōshi", "能因法師"),
    (70, "Ryōzen Hōshi", "良暹法師"),
    (71, "Dainagon Tsunenobu", "大納言経信"),
    (72, "Yūshi Naishinnō-ke no Kii", "祐子内親王家紀伊"),
    (73, "Gon-chūnagon Masafusa", "権中納言匡房"),
    (74, "Minamoto no Toshiyori Ason", "源俊頼朝臣"),
    (75, "Fujiwara no Mototoshi", "藤原基俊"),
    (76, "Hosshōji Nyūdō Saki no Kanpaku Daijōdaijin", "法性寺入道前関白太政大臣"),
    (77, "Sutoku-in", "崇徳院"),
    (78, "Minamoto no Kanemasa", "源兼昌"),
    (79, "Sakyō no Daibu Akisuke", "左京大夫顕輔"),
    (80, "Taikenmon-in no Horikawa", "待賢門院堀河"),
    (81, "Go-Tokudaiji no Sadaijin", "後徳大寺左大臣"),
    (82, "Dōin Hōshi", "道因法師"),
    (83, "Kōtaigōgū no Daibu Toshinari", "皇太后宮大夫俊成"),
    (84, "Fujiwara no Kiyosuke Ason", "藤原清輔朝臣"),
    (85, "Shun'e Hōshi", "俊恵法師"),
    (86, "Saigyō Hōshi", "西行法師"),
    (87, "Jakuren Hōshi", "寂蓮法師"),
    (88, "Kōkamon-in no Bettō", "皇嘉門院別当"),
    (89, "Shokushi Naishinnō", "式子内親王"),
    (90, "Inpumon-in no Taifu", "殷富門院大輔"),
    (91, "Go-Kyōgoku Sesshō Saki no Daijōdaijin", "後京極摂政前太政大臣"),
    (92, "Nijō-in no Sanuki", "二条院讃岐"),
    (93, "Kamakura no Udaijin", "鎌倉右大臣"),
    (94, "Sangi Masatsune", "参議雅経"),
    (95, "Saki no Daisōjō Jien", "前大僧正慈円"),
    (96, "Nyūdō Saki no Daijōdaijin", "入道前太政大臣"),
    (97, "Gon-chūnagon Sadaie", "権中納言定家"),
    (98, "Jūnii Ietaka", "従二位家隆"),
    (99, "Go-Toba-in", "後鳥羽院"),
    (100, "Juntoku-in", "順徳院"),
)


def _type_of(poem: int) -> str:
    if poem in MONK_POEMS:
        return MONK
    if poem in LADY_POEMS:
        return LADY
    if poem in EMPEROR_POEMS:
        return EMPEROR
    if poem == SEMIMARU_POEM:
        return SEMIMARU
    return NOBLE


# CARDS[poem] is that poem's card; index 0 is unused so that poem numbers index directly.
CARDS: tuple[Card | None, ...] = (None,) + tuple(
    Card(poem, poet, poet_ja, _type_of(poem)) for poem, poet, poet_ja in _POETS
)
POEMS = tuple(range(1, 101))


def card_of(poem: int) -> Card:
    """The card of a poem (1-100), typed without CARDS' unused slot 0."""
    card = CARDS[poem]
    if card is None:
        raise ValueError(f"There is no poem {poem}.")
    return card
