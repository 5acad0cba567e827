// The chat's preset phrases in the reader's language, by their keys (fanfold.server.chat's
// PHRASES): the server sends each phrase's key with its English words, and keeps a phrase as
// its key, so that every reader sees it in their own language. A key this page does not know
// (a phrase added later) shows the English words it came with.
import { t } from "./common.js";

const WORDS = {
  hello: () => t("Hello"),
  good_luck: () => t("Good luck"),
  have_fun: () => t("Have fun"),
  well_played: () => t("Well played"),
  nice_move: () => t("Nice move"),
  thanks: () => t("Thanks"),
  sorry: () => t("Sorry"),
  oops: () => t("Oops"),
  good_game: () => t("Good game"),
  must_go: () => t("Sorry, I must go"),
};

// The words of the phrase `key` in the page's language, else `english`.
export function phraseWords(key, english) {
  return Object.hasOwn(WORDS, key) ? WORDS[key]() : english;
}
