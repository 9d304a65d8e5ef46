// The web page's own words (docs/web.md): its chrome in Russian (English is the key itself), and
// the sentence it says for each error code of the host (docs/protocol.md "error") on a Russian
// page, as the terminal client does (frapnet/tui/text.py). app.js reads window.FrapnetWords.
"use strict";

(function () {
  const WORDS = {
    ru: {
      "Join the table": "За стол", "Your name": "Ваше имя", "Password": "Пароль", "Sit down": "Сесть за стол",
      "Watch": "Смотреть", "Score sheet": "Запись счёта", "Log and chat": "Ход игры и чат", "Send": "Отправить",
      "Say something…": "Сообщение…", "Leave the table": "Выйти из-за стола", "player": "игрок", "bid": "заявка",
      "tricks": "взятки", "balance": "счёт", "points": "очки", "connected": "на связи",
      "reconnecting": "нет связи…", "computer": "компьютер", "empty seat": "свободно", "you": "вы",
      "dealer": "сдаёт", "deal": "сдача", "pot": "кон", "treasure": "клад", "trump": "козырь", "turn-up": "вскрышка",
      "taken": "взята", "dead": "вне игры", "talon": "талон", "trick": "взятка", "last trick": "прошлая взятка",
      "Your turn": "Ваш ход", "Waiting for {who}": "Ждём: {who}", "Watching.": "Вы смотрите.",
      "turn clock {n} s": "время на ход {n} с",
      "Watching. To act: {who}": "Вы смотрите. Ходит: {who}",
      "Waiting for players: {k} of {n} seats taken": "Ждём игроков: занято {k} из {n} мест",
      "The next deal starts in a moment.": "Скоро следующая сдача.", "The match is over.": "Партия окончена.",
      "connecting…": "подключение…", "connection lost — reconnecting…": "связь потеряна — переподключение…",
      "disconnected": "отключено", "table closed": "стол закрыт", "Choose cards": "Выберите карты",
      "The table has a password.": "У стола есть пароль.", "after deal": "после сдачи", "now": "сейчас",
      "The table is closed": "Стол закрыт", "Result": "Итог", "You left the table.": "Вы вышли из-за стола.",
      // a table that ended mid-deal, or with chips in the pot (docs/rules/frap.md "What frapnet decided" 7)
      "Deal {deal} was not finished.": "Сдача {deal} не доиграна.",
      "Deal {deal} was not finished: {amount} stays in the {pot}, unplayed; what the players paid into the {pot} is already counted in the balances above.":
        "Сдача {deal} не доиграна, неразыгранным осталось: {pot} {amount}; то, что игроки внесли в {pot}, уже учтено в счёте выше.",
      "{amount} is left in the {pot}, unplayed.": "Осталось неразыгранным: {pot} {amount}.",
      "Leave the table? A computer player takes your seat.": "Выйти? Ваше место займёт компьютер.",
      "Tap a card, then the action.": "Нажмите карту, затем действие.", "face down": "рубашкой вверх",
      "{k} of {n} seats free": "свободно мест: {k} из {n}",
      "All seats are taken; you can watch the game.": "Все места заняты; можно смотреть игру.", "Spectator": "Зритель",
      // the host's closing reasons (docs/protocol.md "closing"; issue #10)
      "match over": "партия окончена", "host stopping": "хост останавливается", "you left the table": "вы вышли из-за стола",
      "the host stopped": "хост остановлен", "the match is over": "партия окончена",
      "{name} declined the rematch": "{name} отказался от новой партии", "{name} left before the rematch": "{name} ушёл до новой партии",
      "{name} came back on a client that cannot answer the rematch": "{name} вернулся с клиентом, который не может ответить на предложение новой партии",
      "no answer to the rematch in {n} s": "нет ответа о новой партии за {n} с",
      "left the table": "вы вышли", "final": "в конце", "when you left": "когда вы вышли", "last seen": "последнее известное",
      "You left the table; the game goes on without you. To come back, reload this page.":
        "Вы вышли из-за стола; игра продолжается без вас. Чтобы вернуться, обновите страницу.",
      // the amounts' limit (frapnet/net/amounts.py NEAR, PAST; F6)
      "the amounts passed 990 digits, near the 1,000 digits the protocol carries: the match ends after this deal (F6)":
        "в счёте или коне больше 990 цифр — почти 1000 цифр, которые передаёт протокол: партия кончается после этой сдачи (F6)",
      "the next move would take the amounts past the 1,000 digits the protocol carries: the match ends before it (F6)":
        "следующий ход сделал бы счёт или кон длиннее 1000 цифр, которые передаёт протокол: партия кончается перед ним (F6)",
      "Enter a name.": "Введите имя.", "A name has at most {n} characters.": "В имени не больше {n} символов.", "The game": "Игра", "Last deal": "Прошлая сдача",
      "House rules": "Домашние правила",
      "This seat was taken over by another connection with its token (another window or device, perhaps); the game goes on there.":
        "Это место заняло другое подключение с его жетоном (наверное, другое окно или устройство); игра продолжается там.",
      "seat taken over": "место занято другим подключением", "taken over": "занято другим",
      "Nothing can be played here any more; the table is shown as it was.": "Здесь больше нельзя играть; стол показан таким, каким был.",
      "The connection is closed. Reload this page to try again.": "Соединение закрыто. Обновите страницу, чтобы попробовать снова.",
      "✓ deal {n}: the host shuffled as it promised before the deal, with your random number mixed in; cards not checked here":
        "✓ сдача {n}: хост перетасовал так, как обещал до сдачи, с вашим случайным числом; карты здесь не проверены",
      "⚠⚠ DEAL {n} FAILED THE FAIRNESS CHECK": "⚠⚠ СДАЧА {n} НЕ ПРОШЛА ПРОВЕРКУ ЧЕСТНОСТИ",
      // why a deal failed the check (fairness.js; the terminal client's words, frapnet/tui/fairtext.py)
      "the reveal holds no seed and salt": "в раскрытии нет зерна и соли",
      "the seed or salt differs from the one committed": "зерно или соль не те, что были обещаны",
      "your own nonce is missing or changed in the reveal": "вашего случайного числа нет в раскрытии или оно изменено",
      "The host stopped; the match is not over. This page takes your seat back by itself once the host is back.":
        "Хост остановлен; партия не окончена. Когда хост снова заработает, эта страница сама вернёт вас на ваше место.",
      "The connection is lost — reconnecting…; you can play again once the table is back.":
        "Связь потеряна — переподключаемся…; ходить можно будет, когда стол вернётся.",
      "Tap the cards you choose, then the action that appears.": "Нажмите выбранные карты, затем появившееся действие.",
      "The match is over. Play again with the same seats? Answer within {n} s.": "Партия окончена. Сыграть ещё раз тем же составом? Ответ в течение {n} с.",
      "Play again": "Сыграть ещё", "No, leave the table": "Нет, выйти из-за стола",
      "You will play again; waiting for the others to answer.": "Вы играете ещё раз; ждём ответа остальных.",
      "The match is over; the players are asked whether they play again.": "Партия окончена; игроков спрашивают, сыграют ли они ещё раз.",
      "Match {n} begins with the same seats.": "Партия {n} начинается тем же составом.",
      "Final standings:": "Итог:",
    },
  };
  // the host writes its error messages in English (docs/protocol.md "error"): a Russian page says
  // the error code's sentence instead, as the terminal client does (frapnet/tui/text.py; issue #10)
  const ERRORS_RU = {
    malformed: "Хост не смог прочитать сообщение этого клиента.", too_large: "Сообщение слишком велико для хоста.",
    bad_message: "Хост отклонил неправильно составленное сообщение.",
    unknown_kind: "Хосту неизвестно сообщение, которое отправил этот клиент.",
    version: "Версия протокола этого клиента не совпадает с версией хоста.",
    password: "Неверный пароль или пароль не указан.", bad_name: "Без управляющих символов имя оказывается пустым.",
    no_table: "На этом хосте нет такого стола.", table_full: "Все места заняты; можно присоединиться зрителем.",
    no_rematch: "Новую партию сейчас не предлагают.", seat_taken: "Это место занято.",
    bad_token: "Жетон места недействителен за этим столом.", not_joined: "Хост ждал сначала приветствия.",
    already_joined: "Это подключение уже за столом.", not_seated: "Зрители не делают ходов.",
    wrong_seat: "Нельзя ходить за другое место.", stale: "Поздно: за столом уже всё изменилось; выберите снова.",
    illegal: "Хост отклонил ход: он нарушает правило.", flood: "Слишком много сообщений в секунду; часть отброшена.",
    timeout: "Хост слишком долго ждал приветствия этого клиента.",
    busy: "Хост занят (слишком много подключений); попробуйте позже.",
    internal: "Хост не смог обработать сообщение (ошибка хоста; она записана в его журнал).",
    late: "Ответ для тасовки сейчас не ожидался.",
    bad_nonce: "Случайное число для тасовки не совпало со своим хешем; это место не участвует в тасовке.",
  };
  window.FrapnetWords = { WORDS: WORDS, ERRORS_RU: ERRORS_RU };
})();
