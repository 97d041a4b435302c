// What the server refuses, in the page's language. The server's messages are English text
// from the engines and the rooms service (docs/protocol.md, "Errors"); the page shows its own
// translation of each code and falls back to the server's text only for a code it does not know.
// On English pages the server's own text is the original, and says more (which option, which
// card), so it is shown as it is. The codes are exactly the server's (games/engines/errors.py),
// which tests/engines/test_error_codes.py checks.
import { gettext, language } from "./i18n.js";

const MESSAGES = {
  // The rooms protocol.
  malformed_json: gettext("The server could not read the message."),
  message_too_large: gettext("The message is too large."),
  too_many_messages: gettext("Too many messages at once: slow down a little."),
  hello_required: gettext("The connection is not ready yet."),
  unknown_type: gettext("The server does not know that request."),
  bad_field: gettext("That request is not valid."),
  bad_token: gettext("This seat is no longer yours."),
  not_a_player: gettext("Only a player at the table can do that."),
  not_your_turn: gettext("It is not your turn."),
  illegal_action: gettext("That move is not allowed."),
  stale_version: gettext("The table changed in the meantime: look again and retry."),
  game_over: gettext("The game is over."),
  game_not_started: gettext("The game has not started yet."),
  no_free_seat: gettext("Every seat is taken."),
  seat_not_available: gettext("That seat cannot be taken."),
  not_creator: gettext("Only the player who set the table can start the game."),
  not_allowed: gettext("That is not possible now."),
  room_not_found: gettext("This table does not exist (any more)."),
  unavailable: gettext("The server is busy: try again in a moment."),
  // The engines' finer codes.
  malformed_action: gettext("That move is not valid."),
  unknown_action: gettext("That move is not valid."),
  no_automatic_step: gettext("That move is not allowed."),
  bad_seat: gettext("There is no such seat."),
  not_over: gettext("The game is not over yet."),
  bad_position: gettext("There is no card there."),
  card_taken: gettext("That card has already been taken."),
  card_face_up: gettext("That card is already face up."),
  wrong_phase: gettext("That move is not possible at this point of the hand."),
  stock_only: gettext("Both players passed the upcard: draw from the stock."),
  not_in_hand: gettext("That card is not in your hand."),
  just_taken: gettext("A card just taken from the discard pile cannot be discarded in the same turn."),
  cannot_knock: gettext("You can knock only with 10 or fewer deadwood points."),
  invalid_state: gettext("The saved game could not be read."),
  // Creating a room (POST /api/rooms).
  invalid_options: gettext("These options cannot be played."),
  invalid_game: gettext("There is no such game."),
  invalid_mode: gettext("This game cannot be played that way."),
  invalid_cpu_level: gettext("There is no such CPU level."),
  invalid_seed: gettext("That seed cannot be used."),
  seed_not_allowed: gettext("Only a development server or a staff account may choose the seed."),
  invalid_pace: gettext("Only a table with friends has a pace: relaxed, normal or quick."),
  too_large: gettext("The request is too large."),
  unsupported_media_type: gettext("The request was not sent as JSON."),
  too_many_rooms: gettext("Too many new tables in a short time: try again in a few minutes."),
  // A finished game's replay and its verification (GET /api/rooms/<id>/replay, /verify).
  game_not_over: gettext("The game is not over yet."),
};

export function errorText(code, serverMessage) {
  if (language === "en" && serverMessage) return serverMessage;
  return MESSAGES[code] || serverMessage || code || gettext("Something went wrong.");
}
