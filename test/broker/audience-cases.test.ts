/**
 * Every case of issue 6 item 4, one row each: the secrets (in the common languages, by name,
 * title, description, format, writeOnly or the message), the spellings that must not hide
 * them, consent under every common wording, and the harmless names and forms an agent may
 * still answer. Alongside each person-only row, the fields a rule must name to answer it.
 */
import { describe, expect, it } from "vitest";
import { decideAudience } from "../../src/broker/audience.js";
import type { JsonObject } from "../../src/protocol/jsonrpc.js";
import { question } from "./support.js";

/** A form with the given fields (and a neutral companion field, so no lone-field rule applies). */
function withField(name: string, schema: JsonObject = { type: "string" }, message = "Please fill in the form"): ReturnType<typeof question> {
  return question("elicitation/create", { message, requestedSchema: { type: "object", properties: { note: { type: "string" }, [name]: schema } } });
}

function asked(message: string, properties: JsonObject, schemaExtra: JsonObject = {}): ReturnType<typeof question> {
  return question("elicitation/create", { message, requestedSchema: { type: "object", properties, ...schemaExtra } });
}

const CATEGORY = {
  password: /a password/,
  code: /one-time, verification or PIN code/,
  credential: /credential/,
  session: /session cookie/,
  card: /payment card/,
  bank: /bank account/,
  identity: /national identity/,
  seed: /seed or recovery phrase/,
};

/** [field name, category]: a field so named, beside a harmless one, is the person's, and the only sensitive field. */
const SECRET_NAMES: Array<[string, keyof typeof CATEGORY]> = [
  // Passwords, in English and the common languages.
  ["password", "password"],
  ["passwd", "password"],
  ["pwd", "password"],
  ["pass", "password"],
  ["passphrase", "password"],
  ["passcode", "password"],
  ["userPassword", "password"],
  ["new_password", "password"],
  ["passwort", "password"],
  ["kennwort", "password"],
  ["contraseña", "password"],
  ["contrasena", "password"],
  ["mot de passe", "password"],
  ["mot_de_passe", "password"],
  ["motDePasse", "password"],
  ["senha", "password"],
  ["palavra-passe", "password"],
  ["parola d'ordine", "password"],
  ["wachtwoord", "password"],
  ["hasło", "password"],
  ["haslo", "password"],
  ["lösenord", "password"],
  ["passord", "password"],
  ["salasana", "password"],
  ["jelszó", "password"],
  ["heslo", "password"],
  ["şifre", "password"],
  ["пароль", "password"],
  ["密码", "password"],
  ["密碼", "password"],
  ["パスワード", "password"],
  ["비밀번호", "password"],
  ["كلمة المرور", "password"],
  ["סיסמה", "password"],
  ["पासवर्ड", "password"],
  ["mật khẩu", "password"],
  ["kata sandi", "password"],
  // One-time codes, OTP/TOTP, PINs, 2FA/MFA and verification codes.
  ["otp", "code"],
  ["OTP", "code"],
  ["otpCode", "code"],
  ["totp", "code"],
  ["one_time_code", "code"],
  ["oneTimePassword", "password"],
  ["pin", "code"],
  ["PIN", "code"],
  ["pinCode", "code"],
  ["2fa", "code"],
  ["2faCode", "code"],
  ["twoFactorCode", "code"],
  ["mfa_code", "code"],
  ["mfaToken", "code"],
  ["verificationCode", "code"],
  ["verification-code", "code"],
  ["securityCode", "code"],
  ["authCode", "code"],
  ["smsCode", "code"],
  ["backupCodes", "code"],
  ["code", "code"],
  ["tan", "code"],
  ["验证码", "code"],
  // Private and SSH keys, access, API and secret keys, tokens, JWTs.
  ["private_key", "credential"],
  ["privateKey", "credential"],
  ["sshKey", "credential"],
  ["ssh_private_key", "credential"],
  ["accessKey", "credential"],
  ["aws_access_key_id", "credential"],
  ["apiKey", "credential"],
  ["apikey", "credential"],
  ["API-Key", "credential"],
  ["secretKey", "credential"],
  ["secret", "credential"],
  ["clientSecret", "credential"],
  ["token", "credential"],
  ["access_token", "credential"],
  ["refreshToken", "credential"],
  ["bearer", "credential"],
  ["bearerToken", "credential"],
  ["jwt", "credential"],
  ["JWT", "credential"],
  ["idToken", "credential"],
  ["credentials", "credential"],
  ["licenseKey", "credential"],
  ["key", "credential"],
  ["токен", "credential"],
  // Cookies, session ids, authorization headers.
  ["cookie", "session"],
  ["sessionCookie", "session"],
  ["session_id", "session"],
  ["sessionId", "session"],
  ["PHPSESSID", "session"],
  ["authorization", "session"],
  ["Authorization", "session"],
  ["authHeader", "session"],
  ["csrfToken", "credential"],
  ["csrf", "session"],
  // Payment cards.
  ["creditCard", "card"],
  ["credit_card_number", "card"],
  ["cardNumber", "card"],
  ["card_no", "card"],
  ["debitCard", "card"],
  ["cvv", "card"],
  ["CVV2", "card"],
  ["cvc", "card"],
  ["ccNumber", "card"],
  // Bank accounts.
  ["iban", "bank"],
  ["IBAN", "bank"],
  ["accountNumber", "bank"],
  ["account_no", "bank"],
  ["routingNumber", "bank"],
  ["bankAccount", "bank"],
  // National identity numbers.
  ["ssn", "identity"],
  ["SSN", "identity"],
  ["socialSecurityNumber", "identity"],
  ["social_security", "identity"],
  ["passportNumber", "identity"],
  ["passport_no", "identity"],
  ["nationalId", "identity"],
  ["national_id_number", "identity"],
  ["taxId", "identity"],
  ["tax_id", "identity"],
  ["taxpayerId", "identity"],
  ["idNumber", "identity"],
  ["driversLicense", "identity"],
  ["personnummer", "identity"],
  ["codiceFiscale", "identity"],
  // Seed, recovery and mnemonic phrases.
  ["seedPhrase", "seed"],
  ["seed_phrase", "seed"],
  ["recoveryPhrase", "seed"],
  ["mnemonic", "seed"],
  ["walletSeed", "seed"],
  ["recoveryKey", "seed"],
  ["backupPhrase", "seed"],
];

/** Spellings that must not hide a password: separators, case, fullwidth, look-alike letters, invisible and combining characters, digits for letters. */
const DISGUISED_PASSWORDS: Array<[string, string]> = [
  ["snake case", "pass_word"],
  ["camel case", "PassWord"],
  ["upper case", "PASSWORD"],
  ["kebab case", "pass-word"],
  ["dotted", "pass.word"],
  ["spaced", "pass word"],
  ["spelled out with hyphens", "p-a-s-s-w-o-r-d"],
  ["spelled out with spaces", "p a s s w o r d"],
  ["Cyrillic р, а and о", "\u0440\u0430ssw\u043erd"],
  ["Greek α and ο", "p\u03b1ssw\u03bfrd"],
  ["Cyrillic capitals", "\u0420\u0410SSW\u041eRD"],
  ["fullwidth", "ｐａｓｓｗｏｒｄ"],
  ["a zero-width space inside", "pass\u200bword"],
  ["a zero-width joiner inside", "pass\u200dword"],
  ["a soft hyphen inside", "pass\u00adword"],
  ["a byte order mark inside", "pass\ufeffword"],
  ["combining accents", "pa\u0301ssw\u0308ord"],
  ["a bidi override inside", "pass\u202eword"],
  ["digits for letters", "p4ssw0rd"],
  ["@ and $ for letters", "p@$$word"],
  ["mathematical letters", "\u{1d429}\u{1d41a}\u{1d42c}\u{1d42c}\u{1d430}\u{1d428}\u{1d42b}\u{1d41d}"],
];

/** Disguised short words, which must still be whole words. */
const DISGUISED_OTHERS: Array<[string, string, keyof typeof CATEGORY]> = [
  ["OTP spelled out", "o-t-p", "code"],
  ["OTP in fullwidth", "ＯＴＰ", "code"],
  ["SSN with a Cyrillic S", "\u0455sn", "identity"],
  ["token with a Cyrillic о", "t\u043eken", "credential"],
  ["API key split by a zero-width space", "api\u200bKey", "credential"],
  ["secret with a digit", "s3cret", "credential"],
];

describe("secrets, by the field's name", () => {
  it.each(SECRET_NAMES)("%s: %s", (name, category) => {
    const decision = decideAudience(withField(name));
    expect(decision.audience, decision.reason).toBe("person");
    expect(decision.sensitiveFields).toEqual([name]);
    expect(decision.reason).toContain(`"${name}"`);
    expect(decision.reason).toMatch(CATEGORY[category]);
  });
});

describe("a password's name however it is written", () => {
  it.each(DISGUISED_PASSWORDS)("%s (%j)", (_how, name) => {
    const decision = decideAudience(withField(name));
    expect(decision).toMatchObject({ audience: "person", sensitiveFields: [name] });
    expect(decision.reason).toMatch(/a password/);
  });

  it.each(DISGUISED_OTHERS)("%s (%j)", (_how, name, category) => {
    const decision = decideAudience(withField(name));
    expect(decision).toMatchObject({ audience: "person", sensitiveFields: [name] });
    expect(decision.reason).toMatch(CATEGORY[category]);
  });
});

describe("secrets that only the rest of the field gives away", () => {
  it.each<[string, JsonObject, RegExp]>([
    ["a title in German", { type: "string", title: "Passwort" }, /titled like a password/],
    ["a title in Japanese", { type: "string", title: "パスワード" }, /titled like a password/],
    ["a title in Russian", { type: "string", title: "Ваш пароль" }, /titled like a password/],
    ["a title naming a one-time code", { type: "string", title: "One-time code" }, /titled like a one-time/],
    ["a title naming a card's CVC", { type: "string", title: "CVC" }, /payment card/],
    ["a description", { type: "string", description: "The 6-digit code from your authenticator app" }, /described as a one-time/],
    ["a description of a key", { type: "string", description: "Paste your SSH private key here" }, /described as a credential/],
    ["format password", { type: "string", format: "password" }, /format "password"/],
    ["another format naming a secret", { type: "string", format: "credit-card" }, /format that reads as a payment card/],
    ["writeOnly", { type: "string", writeOnly: true }, /write-only/],
  ])("%s", (_how, schema, reason) => {
    const decision = decideAudience(withField("value", schema));
    expect(decision).toMatchObject({ audience: "person", sensitiveFields: ["value"] });
    expect(decision.reason).toMatch(reason);
  });
});

describe("a message that asks for a secret: every field is the person's", () => {
  it.each<[string, RegExp]>([
    ["Enter your 2FA code", /one-time/],
    ["Enter the 6-digit code we sent to your phone", /one-time/],
    ["Your MFA code, please", /one-time/],
    ["Type the verification code from the e-mail", /one-time/],
    ["Enter the code from the SMS", /one-time/],
    ["Type the code we texted you", /one-time/],
    ["What is your PIN?", /one-time/],
    ["Please enter your password", /a password/],
    ["Bitte geben Sie Ihr Passwort ein", /a password/],
    ["Introduzca su contraseña", /a password/],
    ["Entrez votre mot de passe", /a password/],
    ["Digite sua senha", /a password/],
    ["Inserisci la parola d'ordine", /a password/],
    ["Voer uw wachtwoord in", /a password/],
    ["Podaj hasło", /a password/],
    ["Введите пароль", /a password/],
    ["请输入密码", /a password/],
    ["パスワードを入力してください", /a password/],
    ["비밀번호를 입력하세요", /a password/],
    ["Paste your GitHub token", /credential/],
    ["Paste your API key", /credential/],
    ["We need your AWS secret access key", /credential/],
    ["Paste the Authorization header", /session/],
    ["Paste the session cookie from your browser", /session/],
    ["Enter your credit card number", /payment card/],
    ["Your IBAN for the refund", /bank account/],
    ["Your social security number", /national identity/],
    ["Your passport number", /national identity/],
    ["Enter your wallet's recovery phrase", /seed or recovery/],
    ["Type your 12-word seed phrase", /seed or recovery/],
  ])("%j", (message, category) => {
    const decision = decideAudience(asked(message, { value: { type: "string" }, other: { type: "string" } }));
    expect(decision).toMatchObject({ audience: "person", sensitiveFields: ["value", "other"] });
    expect(decision.reason).toMatch(/the message asks for/);
    expect(decision.reason).toMatch(category);
  });

  it("a form-level title that asks for a secret counts as the message", () => {
    const decision = decideAudience(asked("Sign in", { a: { type: "string" }, b: { type: "string" } }, { title: "One-time password" }));
    expect(decision).toMatchObject({ audience: "person", sensitiveFields: ["a", "b"] });
  });
});

describe("consent: a lone yes/no is the person's, whatever its wording", () => {
  const CONSENT_WORDS = [
    "allow",
    "authorize",
    "authorise",
    "accept",
    "ok",
    "okay",
    "yes",
    "continue",
    "confirm",
    "approve",
    "proceed",
    "consent",
    "agree",
    "permit",
    "permission",
    "grant",
    "goAhead",
    "acknowledge",
    "optIn",
    "zustimmen",
    "aceptar",
    "autoriser",
    "подтвердить",
  ];

  it.each(CONSENT_WORDS)("a lone boolean named %s", (name) => {
    const decision = decideAudience(asked("Tell me", { [name]: { type: "boolean" } }));
    expect(decision).toMatchObject({ audience: "person", sensitiveFields: [name] });
    expect(decision.reason).toMatch(/consent/);
  });

  it.each([
    "Allow access to your calendar?",
    "Do you authorise the payment?",
    "Accept the terms?",
    "OK to continue?",
    "Shall I go ahead?",
    "Are you sure?",
    "Proceed with the deletion?",
    "Do you consent?",
    "Do you agree?",
    "Grant write access?",
    "Zustimmen?",
    "同意しますか",
    "동의하십니까?",
  ])("a lone boolean with a neutral name and the message %j", (message) => {
    const decision = decideAudience(asked(message, { value: { type: "boolean" } }));
    expect(decision).toMatchObject({ audience: "person", sensitiveFields: ["value"] });
    expect(decision.reason).toMatch(/consent/);
  });

  it("a lone boolean with a neutral name and a neutral message (a yes/no is a decision: the person's)", () => {
    expect(decideAudience(asked("Verbose output?", { verbose: { type: "boolean" } }))).toMatchObject({ audience: "person", sensitiveFields: ["verbose"] });
  });

  it("a lone boolean titled as consent", () => {
    expect(decideAudience(asked("Tell me", { x: { type: "boolean", title: "I agree to the terms" } }))).toMatchObject({
      audience: "person",
      sensitiveFields: ["x"],
    });
  });

  it.each<[string, JsonObject]>([
    ["enum yes/no", { type: "string", enum: ["yes", "no"] }],
    ["enum Y/N", { type: "string", enum: ["Y", "N"] }],
    ["enum allow/deny", { type: "string", enum: ["allow", "deny"] }],
    [
      "oneOf with yes/no titles",
      {
        type: "string",
        oneOf: [
          { const: "a", title: "Yes, delete it" },
          { const: "b", title: "No, keep it" },
        ],
      },
    ],
    ["enumNames allow/don't allow", { type: "string", enum: ["1", "2"], enumNames: ["Allow", "Don't allow"] }],
    ["enum of one 'I accept'", { type: "string", enum: ["I accept"] }],
    ["oui/non", { type: "string", enum: ["oui", "non"] }],
    ["ja/nein", { type: "string", enum: ["ja", "nein"] }],
    ["да/нет", { type: "string", enum: ["да", "нет"] }],
  ])("a lone field whose only choices are yes and no: %s", (_how, schema) => {
    expect(decideAudience(asked("Tell me", { choice: schema }))).toMatchObject({ audience: "person", sensitiveFields: ["choice"] });
  });

  it("a lone field of another type worded as consent (a typed confirmation)", () => {
    expect(decideAudience(asked("Type the repository name to confirm the deletion", { name: { type: "string" } }))).toMatchObject({
      audience: "person",
      sensitiveFields: ["name"],
    });
  });

  it("an empty form worded as consent: person-only, with no field a rule could name", () => {
    const decision = decideAudience(asked("Allow the server to read your files?", {}));
    expect(decision).toMatchObject({ audience: "person", sensitiveFields: [] });
    expect(decision.reason).toMatch(/consent/);
  });
});

/**
 * Issue 13 item 2: consent is a property of the question, not of a form having one field. A
 * yes/no worded as consent, a yes/no under a message asking for consent, and a message asking
 * to approve an irreversible act are the person's however many other fields sit beside them.
 */
describe("consent among other fields", () => {
  const OTHER = { reason: { type: "string" } };

  it('the issue\'s case: "Delete the production database?" with a confirm boolean and another field', () => {
    const decision = decideAudience(asked("Delete the production database?", { confirm: { type: "boolean" }, ...OTHER }));
    expect(decision.audience, decision.reason).toBe("person");
    expect(decision.sensitiveFields).toContain("confirm");
    expect(decision.reason).toMatch(/consent|irreversible/);
  });

  it.each([
    "confirm",
    "approve",
    "approved",
    "consent",
    "agree",
    "agreeToTerms",
    "allow",
    "allowAccess",
    "authorize",
    "authorise",
    "acceptTerms",
    "permit",
    "grantAccess",
    "acknowledge",
    "proceed",
    "confirmDelete",
    "zustimmen",
    "подтвердить",
  ])("a boolean named %s beside a neutral message and another field", (name) => {
    const decision = decideAudience(asked("Please fill in the form", { [name]: { type: "boolean" }, ...OTHER }));
    expect(decision).toMatchObject({ audience: "person", sensitiveFields: [name] });
    expect(decision.reason).toContain(`"${name}"`);
    expect(decision.reason).toMatch(/consent/);
  });

  it.each<[string, JsonObject]>([
    ["a title", { type: "boolean", title: "I agree to the terms" }],
    ["a description", { type: "boolean", description: "Tick to approve the transfer" }],
    ["yes/no choices titled as approval", { type: "string", enum: ["y", "n"], enumNames: ["Approve", "Reject"] }],
  ])("a yes/no with a neutral name worded as consent by %s", (_how, schema) => {
    expect(decideAudience(asked("Please fill in the form", { value: schema, ...OTHER }))).toMatchObject({ audience: "person", sensitiveFields: ["value"] });
  });

  it.each([
    "Delete the production database?",
    "Allow access to your calendar?",
    "Do you authorise the payment?",
    "Are you sure?",
    "Approve the deployment?",
    "Proceed with the deletion?",
    "Grant write access?",
    "同意しますか",
  ])("a yes/no with a neutral name under the message %j", (message) => {
    const decision = decideAudience(asked(message, { value: { type: "boolean" }, ...OTHER }));
    expect(decision.audience, decision.reason).toBe("person");
    expect(decision.sensitiveFields).toContain("value");
  });

  it.each([
    "Delete the production database?",
    "Drop the table users?",
    "Permanently erase every file in /srv?",
    "Wipe the phone?",
    "Remove the repository acme/api?",
    "Overwrite config.json?",
    "Uninstall the package?",
    "Revoke the team's access?",
    "Transfer 500 EUR to the account below?",
    "Pay the invoice now?",
    "Force push to main?",
    "This cannot be undone. Go on?",
    "Datenbank löschen?",
    "¿Eliminar la base de datos?",
    "Supprimer le dépôt ?",
    "Удалить базу данных?",
    "删除数据库？",
    "データベースを削除しますか？",
    "데이터베이스를 삭제할까요?",
  ])("a message asking to approve an irreversible act, %j: every field is the person's, whatever they are", (message) => {
    const decision = decideAudience(asked(message, { name: { type: "string" }, note: { type: "string" } }));
    expect(decision.audience, decision.reason).toBe("person");
    expect(decision.sensitiveFields).toEqual(["name", "note"]);
    expect(decision.reason).toMatch(/irreversible|consent/);
  });

  it("an empty form asking to approve an irreversible act: person-only, with no field a rule could name", () => {
    expect(decideAudience(asked("Delete the production database?", {}))).toMatchObject({ audience: "person", sensitiveFields: [] });
  });

  it("an irreversible act that is not what the form asks: harmless words that look alike", () => {
    for (const message of [
      "Pick a drop-off time",
      "Which payment method do you prefer?",
      "Choose the era",
      "Paypal or card: which?",
      "Name the removals company",
    ]) {
      expect(decideAudience(asked(message, { a: { type: "string" }, b: { type: "string" } })).audience, message).toBe("agent");
    }
  });
});

/**
 * Issue 13, a rough edge: a message that warns about a secret ("do not give us your PIN") does
 * not ask for one; a message that asks for one, whatever else it says, still does.
 */
describe("negations of a secret in the message", () => {
  it.each([
    "Do not give us your PIN",
    "Never enter your password here",
    "We will never ask for your password",
    "Don't paste your API key into this form",
    "No password needed: just your name",
    "Please do not include credit card numbers",
    "Geben Sie niemals Ihr Passwort ein",
    "Ne saisissez jamais votre mot de passe ici",
    "Nunca introduzca su contraseña aquí",
  ])("%j with neutral fields: an agent may answer", (message) => {
    const decision = decideAudience(asked(message, { name: { type: "string" }, city: { type: "string" } }));
    expect(decision.audience, decision.reason).toBe("agent");
  });

  it.each([
    "Do not share it with anyone: enter your PIN",
    "Never share your password with anyone, but type it here",
    "Don't forget to enter your password",
    "Do not hesitate to paste your API key",
    "Never mind the rest, paste your API key",
    "Not your password but your PIN",
    "If you don't have a password, enter your one-time code",
    "Your password is never stored",
    "Never enter your password anywhere but here",
    "No worries paste your API key",
    "Nothing to fear, we do not log it: type your password",
    "We could not verify you so enter your password",
    "The code is not your password; enter the code from the SMS",
    "Do not send the OTP to anyone else, type it below",
    "Please enter your password. We never share it.",
  ])("%j still asks for a secret: every field is the person's", (message) => {
    const decision = decideAudience(asked(message, { value: { type: "string" }, other: { type: "string" } }));
    expect(decision, decision.reason).toMatchObject({ audience: "person", sensitiveFields: ["value", "other"] });
  });

  it("a negation in the message never hides a field that is itself a secret", () => {
    const decision = decideAudience(asked("Do not give us your PIN", { name: { type: "string" }, pin: { type: "string" } }));
    expect(decision).toMatchObject({ audience: "person", sensitiveFields: ["pin"] });
  });
});

describe("an agent may still answer", () => {
  const HARMLESS = [
    "passengers",
    "passenger_count",
    "compass",
    "bypass",
    "passport_country",
    "partySize",
    "name",
    "time",
    "email",
    "age",
    "colour",
    "city",
    "country",
    "username",
    "user",
    "login",
    "account",
    "accountName",
    "sessionName",
    "keyword",
    "monkey",
    "spinner",
    "pinned",
    "opinion",
    "options",
    "hotpot",
    "className",
    "secretary",
    "description",
    "maxTokens",
    "seed",
    "session",
    "cardColor",
    "address2",
    "notes",
    "date",
    "topic",
    "keyboard",
    "credit",
    "passage",
    "compassion",
    "hint",
  ];

  it.each(HARMLESS)("a field named %s among others", (name) => {
    const decision = decideAudience(withField(name));
    expect(decision.audience, decision.reason).toBe("agent");
    expect(decision.sensitiveFields).toEqual([]);
  });

  it.each([
    "Pick the slot you want",
    "Which passengers are travelling?",
    "How many tokens may the answer use?",
    "Choose a time for the meeting",
    "Who are you?",
    "Pick some options",
  ])("a form with the harmless message %j", (message) => {
    expect(decideAudience(asked(message, { a: { type: "string" }, b: { type: "integer" } })).audience).toBe("agent");
  });

  it("the example desk server's booking form, and a form with yes/no fields that ask for no consent", () => {
    const booking = asked("Booking a table at Luigi's: who is it for?", {
      name: { type: "string", title: "Name on the booking", minLength: 1 },
      partySize: { type: "integer", title: "Party size", minimum: 1, maximum: 12, default: 2 },
      time: {
        type: "string",
        title: "Time",
        oneOf: [
          { const: "18:00", title: "Early (18:00)" },
          { const: "20:00", title: "Late (20:00)" },
        ],
        default: "20:00",
      },
    });
    expect(decideAudience(booking)).toMatchObject({ audience: "agent", sensitiveFields: [] });
    const preferences = asked("Who is coming?", {
      name: { type: "string" },
      vegetarian: { type: "boolean", title: "Vegetarian" },
      newsletter: { type: "boolean", title: "Newsletter" },
      seating: { type: "string", enum: ["in", "out"], enumNames: ["Inside", "Outside"] },
    });
    expect(decideAudience(preferences)).toMatchObject({ audience: "agent", sensitiveFields: [] });
    expect(decideAudience(asked("Would you like a window seat?", { window: { type: "boolean" }, name: { type: "string" } })).audience).toBe("agent");
    expect(decideAudience(asked("Please confirm your shipping address", { street: { type: "string" }, city: { type: "string" } })).audience).toBe("agent");
  });

  // "Accept", "continue" and "proceed" in a message usually mean "submit this form" (accept is the
  // action's own name): they do not make the form's other yes/no fields a consent. A yes/no that
  // is itself worded so ("Accept the terms") still is one.
  it.each([
    ["Test client default value handling - please accept with defaults", "verified", "Verification status"],
    ["Fill in your details to continue", "newsletter", "Newsletter"],
    ["Tell us about the trip before we proceed", "window", "Window seat"],
  ])("a form submitted with %j keeps its neutral yes/no %s an agent's", (message, field, title) => {
    const decision = decideAudience(asked(message, { name: { type: "string" }, [field]: { type: "boolean", title } }));
    expect(decision.audience, decision.reason).toBe("agent");
  });

  it("a yes/no worded as acceptance among other fields is still the person's", () => {
    const decision = decideAudience(asked("Please fill in and continue", { name: { type: "string" }, terms: { type: "boolean", title: "Accept the terms" } }));
    expect(decision).toMatchObject({ audience: "person", sensitiveFields: ["terms"] });
  });

  it("a lone field that is neither a yes/no nor worded as consent, and an empty form with a neutral message", () => {
    expect(decideAudience(asked("Where do you live?", { city: { type: "string" } })).audience).toBe("agent");
    expect(decideAudience(asked("Pick a size", { size: { type: "string", enum: ["s", "m", "l"] } })).audience).toBe("agent");
    expect(decideAudience(asked("Nothing more to add", {})).audience).toBe("agent");
  });
});

describe("the other kinds are unchanged", () => {
  it("URL mode is the person's; sampling an agent's", () => {
    expect(decideAudience(question("elicitation/create", { mode: "url", message: "Sign in", url: "https://example.com", elicitationId: "e" })).audience).toBe(
      "person",
    );
    expect(
      decideAudience(question("sampling/createMessage", { messages: [{ role: "user", content: { type: "text", text: "your password" } }], maxTokens: 5 }))
        .audience,
    ).toBe("agent");
  });
});
