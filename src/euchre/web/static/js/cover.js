// What a seat at a coin table needs, shown before anyone sits: the stake plus the leaving
// fee's cover (10% of the stake, rounded up to a whole coin, as src/euchre/coins/rules.py).

/** The leaving fee at `stake`: 10%, rounded up to a whole coin. */
export function leavingFee(stake) {
  return Math.ceil((stake * 10) / 100);
}

/** Coins a balance needs to sit at `stake`: the stake plus its leaving fee. */
export function cover(stake) {
  return stake + leavingFee(stake);
}

/** "Sitting down needs 110 coins: the 100-coin stake and 10 to cover the leaving fee." */
export function coverText(stake) {
  return `Sitting down needs ${cover(stake)} coins: the ${stake}-coin stake and ${leavingFee(stake)} to cover the leaving fee.`;
}
