// The rules of coin tables and of the move clock, shown on the rules page and the coin page.

export const CLOCK_PARAGRAPHS = [
  "At a coin table against the computer you get up to 90 seconds for each move, and the clock above the table counts down the exact time left. If it runs out, the table plays that move for you on the merits, as the strongest computer player would. You are not forfeited, nothing extra is charged, and your stake and payout are unchanged.",
  "Each of your first three missed moves keeps the full clock; miss a third in a row and the rest of that hand runs at computer speed, about two thirds of a second a turn. Making one move yourself puts the full clock back.",
  "Computer speed ends with the hand: the next hand starts with the full 90 seconds. The count of misses in a row carries on into it, though, so if you are still away, one more missed move brings computer speed back at once. A move that reaches the table before it has played for you counts as yours.",
  "A dropped connection is not leaving: the clock runs on and plays for you, and when you reconnect you carry on from where the game is. If the server restarts, your table comes back as it was and the move in progress gets its clock again from the top.",
];

export const COIN_PARAGRAPHS = [
  "Coin tables use play coins and need an account; a new account starts with 1,000. Choose a stake (10, 50, 100 or 500 coins) before joining: it is held when the game starts. To sit down your balance must cover the stake plus its leaving fee (110 coins for a 100-coin stake), and it keeps that fee covered while you play. Win and you get twice the stake back, your stake plus equal winnings; lose and the stake is gone.",
  "Leaving an active coin game forfeits the stake and adds a leaving fee of 10% of the stake, rounded up to a whole coin, always in full. A leave that reaches the table after the game's deciding card is refused and costs nothing: you played the game to the end. Once a day, if your balance is too small to sit at the smallest table (below 11 coins: the 10-coin stake and its leaving fee), you may take a free top-up to 200 coins.",
  "Play coins have no cash value and cannot be cashed out.",
];

// Stakes against people at online tables (docs/online.md, "Coin stakes against people").
export const STAKE_PARAGRAPHS = [
  "An online table against people may carry a stake, chosen when it is opened (10, 50, 100 or 500 coins) and shown in the list. Only signed-in people whose balance covers it and its leaving fee may sit (the fees of other games they are in kept aside); everyone seated stakes the same and computer seats stake nothing. The stakes go into the table's pot when the game starts; if someone seated can no longer cover it, the game does not start and nothing is taken.",
  "The winning side shares the pot: it is split equally between the winning seats where a person staked, and each part is paid to its person if they are still playing. A winner whose partner is a computer takes the whole pot. The part of someone who left goes to nobody, so a partner who stays wins the same as in a full game; if two computers win, the pot goes to nobody.",
  "Leaving a started game (the Leave button, or being away more than 60 seconds) forfeits your stake and adds the 10% leaving fee, in full; a computer plays your seat to the end and you keep your side's result for ratings. Come back within the 60 seconds and the seat is still yours. A leave that reaches the table after the game's deciding card is refused and charges nothing: your share of the pot is yours.",
];

/** The rules page's section: [title, paragraphs]. */
export const COIN_SECTION = ["Coin tables and your clock", [...COIN_PARAGRAPHS, ...STAKE_PARAGRAPHS, ...CLOCK_PARAGRAPHS]];
