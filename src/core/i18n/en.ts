/**
 * The English catalog: the source of the message keys, and the product's English wording.
 * A key starts with the error code its message goes with (`invalid_url.no_scheme`); the keys
 * of texts that are not refusals start with where they are shown (`page.`, `why.`).
 * `{name}` is a parameter; every other catalog must use exactly the same ones per key
 * (test/i18n-catalogs.test.ts). English texts are compared by many tests: change them here only
 * on purpose.
 */
export const en = {
  // URL rules (settings routes, setup)
  'invalid_url.no_scheme': 'The archive server URL is not a URL: give it with its scheme, for example https://paperless.example.com.',
  'invalid_url.no_authority': 'The archive server URL is not a URL: write it as http(s)://host[:port][/path].',
  'invalid_url.no_host': 'The archive server URL has no host name.',
  'invalid_url.unparsable': 'The archive server URL is not a URL: check the host name and the port.',
  'unsupported_scheme.scheme': 'The archive server URL must start with http:// or https://, not {scheme}:.',
  'url_extras.query': 'The archive server URL must not have a query (?…) or a fragment (#…): give only scheme, host, port and path.',
  'url_extras.credentials': 'The archive server URL must not carry a user name or password: remove the part before @ and give the API token separately.',
  'host_not_ascii.host': 'The host of the archive server URL is not in ASCII form: enter the xn-- (punycode) form of the name.',
  // The host's base URL for links; {source} names where it came from: --host-url/DUS_HOST_URL, host_url, overwrite.cli.url (file)
  'invalid_url.host_url':
    "The Nextcloud URL for links ({source}) is not a URL: give Nextcloud's address as http(s)://host[:port][/path], for example https://cloud.example.com.",
  'unsupported_scheme.host_url': 'The Nextcloud URL for links ({source}) must start with http:// or https://, not {scheme}:.',
  'url_extras.host_url':
    "The Nextcloud URL for links ({source}) must not carry a user name, a password, a query (?…) or a fragment (#…): give only Nextcloud's scheme, host, port and path.",

  // Token rule
  'token_required.none': 'No API token is stored: enter the API token of the archive server account the search should use.',
  'token_required.unreadable': "The stored API token can't be decrypted (the instance secret changed): enter the API token again.",
  'token_for_other_server.origin': 'The stored API token was saved for another server (scheme, host or port differ): enter the token for this server.',

  // Save and Disconnect
  'internal.connection_test': 'The connection test failed unexpectedly; see the host log.',
  'internal.not_saved_host': 'Nothing was saved: {reason}. The host log has the detail.',
  'internal.not_saved': 'The settings could not be saved; nothing was changed. The host log has the detail.',
  'internal.not_deleted': 'The settings could not be deleted. The host log has the detail.',
  'internal.token_changed': 'Nothing was saved: another save changed the stored API token while this one tested the connection. {detail}',
  'internal.host_failed': 'reading the host (Nextcloud) failed unexpectedly',
  'host_unreachable.reason': "the host's database could not be opened or read (host_unreachable)",
  'host_schema.reason': "the host's database lacks a table or column this service reads (host_schema)",
  'host_config.reason': "the host's location (the Nextcloud directory, its config.php or the database URL) is not usable (host_config)",
  'internal.host_read_failed': "reading the host's database failed ({code})",
  'unknown_archive_account.given':
    'The archive account "{account}" does not exist on the host: give the ID of an existing account, or leave it empty for the synchronization add-on\'s account.',
  'unknown_archive_account.archive_owner': 'The archive account "{account}" (archive_owner) does not exist on the host: {advice}',
  'unknown_archive_account.target_user': 'The synchronization add-on\'s account "{account}" (docs_sync target_user) does not exist on the host: {advice}',
  'unknown_archive_account.none_set': 'No archive account is set (archive_owner) and the synchronization add-on names none (docs_sync target_user): {advice}',
  'unknown_archive_account.advice_why': "set one with setup --archive-account=ID, or set the synchronization add-on's target_user.",
  'unknown_archive_account.advice_warm_up': 'searches find no document until one exists (setup --archive-account=ID).',
  'unknown_archive_account.advice_coverage': "run setup --archive-account=ID, or set the synchronization add-on's target_user.",

  // The archive server's failures
  'tls.untrusted': 'The certificate of {host} is not trusted ({code}). Give the archive server a certificate the host trusts, or import its CA certificate.',
  'tls_handshake.failed':
    'An encrypted connection to {host}:{port} could not be set up. Check that the archive server speaks HTTPS on this port, or use http:// if it does not.',
  'tls_handshake.failed_code':
    'An encrypted connection to {host}:{port} could not be set up ({code}). Check that the archive server speaks HTTPS on this port, or use http:// if it does not.',
  'unreachable.failed': 'The connection to {host}:{port} failed. Check that the archive server runs and that the host can reach it.',
  'unreachable.failed_code': 'The connection to {host}:{port} failed ({code}). Check that the archive server runs and that the host can reach it.',
  'timeout.archive': 'The archive server did not answer in time. Check that it runs and is not overloaded, then try again.',
  'unknown_host.host': 'The host name {host} of the archive server does not resolve. Check the URL.',
  'local_address.forward': 'The archive server forwards the request to {host}, an address in the local network; the host never follows a forward there.',
  'local_address.address': 'The address of {host} is in the local network, which the host refuses. If the archive server runs in your local network, {turnOn}.',
  'redirect.local_switch': 'The URL forwards elsewhere (HTTP {status}); {whenOn}, no forward is followed. Enter the address the archive server forwards to.',
  'redirect.too_many': 'The URL forwards more than 5 times (HTTP {status}). Enter the final address of the archive server.',
  'redirect.bad_target':
    'The URL forwards to an address that is not plain HTTP or HTTPS, or carries credentials (HTTP {status}). Enter the final address of the archive server.',
  'local_switch.page.turn_on': 'switch on "archive server runs in my local network"',
  'local_switch.page.when_on': 'with "archive server runs in my local network" on',
  'local_switch.cli.turn_on': 'run setup again with --allow-local',
  'local_switch.cli.when_on': 'with --allow-local',
  'unauthorized.foreign_host':
    'The URL forwards to {host}, another server (scheme, host or port), which gets no token and refused the request (HTTP {status}). Enter the address the archive server forwards to.',
  'unauthorized.token': 'The archive server refused the API token (HTTP {status}). Enter the token of an archive-server account that may view documents.',
  'unauthorized.unsendable': 'The API token contains spaces, line breaks or other characters an archive-server token never has. Enter the token again.',
  'not_found.path':
    "The archive server answered HTTP 404 for {path}: the path of the URL is wrong. Enter the address under which the archive server's web interface opens.",
  'http.status': 'The archive server answered HTTP {status}. Check that it runs properly, then try again.',
  'not_paperless.answer': 'The answer is not a list of documents of the archive server ({reason}). Check that the URL is the address of Paperless-ngx.',
  'unsupported_version.newer':
    'The archive server is newer than this release supports: it announced {announced} and no longer accepts API version {version}, the version this release speaks (HTTP 406). Update docs-unified-search.',
  'unsupported_version.older':
    'The archive server does not speak version {version} of its API (HTTP 406): it is older than Paperless-ngx 2.16. Update the archive server.',
  'unsupported_version.unknown':
    'The archive server does not accept version {version} of its API (HTTP 406): it is older than Paperless-ngx 2.16 (update the archive server), or newer than this release supports and no longer speaks version {version} (update docs-unified-search).',

  // The config directory's files (config_access: settings, secret, credentials, audit log)
  'config_access.read': 'Cannot read {path} ({code}). {remedy}',
  'config_access.write': 'Cannot write {path} ({code}). {remedy}',
  'config_access.create': 'Cannot create the directory {path} ({code}). {remedy}',
  'config_access.elsewhere': 'or give --config-dir DIR (or DUS_CONFIG_DIR) naming a directory this user owns',
  'config_access.this_user': 'this user',
  'config_access.runs_as': 'This command runs as {me}: give it access, {elsewhere}.',
  'config_access.owned_by':
    '{found} is owned by {owner} with mode {mode}, and this command runs as {me}: run it as the owner, give {me} access (chown/chmod), {elsewhere}.',
  'config_access.read_only': 'The file system holding it is read-only: mount it writable, {elsewhere} on a writable file system.',
  'config_access.is_directory': '{path} is a directory where a file is expected: move it out of the way (the suite creates the file).',
  'config_access.not_directory': 'A part of the path {path} is a file where a directory is expected: move it out of the way, {elsewhere}.',
  'config_access.file_in_the_way':
    '{path} is not a directory: give --config-dir DIR (or DUS_CONFIG_DIR) naming a directory this user owns (or move that file away if it is stray).',
  'config_access.full': 'The disk or the quota is full: free some space.',
  'config_access.check': 'Check the path and its permissions, {elsewhere}.',

  // Refusals of the HTTP wrapper
  unauthenticated: 'Log in with your login and password or an app password.',
  forbidden: 'Only administrators may do this.',
  password_confirmation_required: 'Confirm your password first: it was last confirmed more than 30 minutes ago.',
  csrf: 'CSRF check failed: send the request token of your session, or log in with HTTP Basic and the header OCS-APIRequest: true.',
  throttled: 'Too many failed logins from your address. Try again later.',
  'internal.wrapper': 'Internal error; the host log has the detail.',
  'usage.multipart': 'The multipart form could not be read.',
  'not_found.route': 'No such route.',
  'usage.field_required': 'The field {field} is required.',
  'usage.field_too_long': 'The field {field} is longer than {max} characters.',
  'usage.document_id': 'The field document is a document id: a whole number from 1 (412, or its marker [P412]).',
  'usage.form_repeated': '{field} was given more than once.',
  'usage.form_not_text': '{field} must be text.',
  'usage.form_too_long': '{field} is longer than {max} characters.',
  'usage.form_not_flag': '{field} must be true or false.',
  'usage.form_missing': 'Send the settings as form fields: url, token, archiveOwner, allowLocal, alwaysSearch.',
  'usage.form_url_required': 'The form field url is required.',

  // Names the searching user sees (provider, smart picker, widget), in that user's language
  'names.provider': 'Archive documents',
  'names.widget': 'New in the archive',
  'names.widget_more': 'Files shared with you',
  'names.widget_empty': 'No new documents in the archive that you can open.',
  'names.widget_unreachable': 'The archive server is currently unreachable.',

  // The admin page's form (serve's own page and the bridge's section), in the administrator's language
  'page.token_unreadable': "The stored token can't be decrypted: enter it again",
  'page.token_stored': 'A token is stored',
  'page.token_none': 'No token stored',
  'page.connected': 'Connected',
  'page.needs_attention': 'Needs attention',
  'page.versions': 'Archive server {version}, API {api}',
  'page.owner_missing': 'The archive account does not exist: name an existing account.',
  'page.archive_server': 'Archive server',
  'page.url': 'Archive server URL',
  'page.url_hint': 'With its path if the archive server runs under one. Another server needs its token again.',
  'page.token': 'API token',
  'page.token_keep': 'Leave blank to keep the stored token',
  'page.token_placeholder': 'Token of the archive account the search uses',
  'page.owner': 'Archive account',
  'page.owner_hint': "Host account whose files stand for documents. Blank takes the synchronization add-on's account{sync}.",
  'page.allow_local': 'Archive server runs in my local network',
  'page.always_search': 'Always include archive in global search',
  'page.save': 'Save',
  'page.disconnect': 'Disconnect',
  'page.history': 'Problem history',
  'page.loading': 'Loading…',
  'page.clear_history': 'Clear history',
  'page.try': 'Try a search',
  'page.try_term': 'Search term',
  'page.try_user': 'Search as user',
  'page.try_run': 'Try',
  'page.who_document': 'Who can open document',
  'page.who_blocked': 'Also those a share reaches who cannot open it',
  'page.who_run': 'Who?',
  'page.confirm_title': 'Confirm your password',
  'page.confirm_text': 'This action needs your password: it was last confirmed more than 30 minutes ago.',
  'page.password': 'Password',
  'page.confirm': 'Confirm',
  'page.cancel': 'Cancel',
  // Texts the admin page's script writes (page.script.*), handed to it by the page in the administrator's language
  'page.script.wrong_password': 'Wrong password.',
  'page.script.too_many': 'Too many failed attempts. Try again later.',
  'page.script.cancelled': 'Cancelled: the password was not confirmed.',
  'page.script.request_failed': 'The request failed.',
  'page.script.history_failed': 'The history could not be loaded.',
  'page.script.no_problems': 'No problems recorded.',
  'page.script.saved': 'Saved: the archive server answered.',
  'page.script.disconnected': 'Disconnected: settings, token and history deleted.',
  'page.script.history_cleared': 'History cleared.',
  'page.script.head_shown': 'Shown',
  'page.script.head_why_not': 'Why not',
  'page.script.yes': 'yes',
  'page.script.no': 'no',
  'page.script.who_count': '{count} account(s) can open document {id}.',
  'page.title': 'Document archive search – Administration',
  'page.heading': 'Document archive search',
  'page.log_out': 'Log out',
  'page.admins_only': 'Administrators only',
  'page.admins_only_text': '{uid}, these settings are for administrators of the host.',
  // The verdict explanations (why, search --explain, Try a search's whyNot, who's blocked accounts)
  'why.not_shared.cause': 'Document {id}: the archive account {archiveAccount} has {file} but {user} cannot open it: {why}.',
  'why.not_shared.unexplained':
    'Document {id}: the archive account {archiveAccount} has {file} but {user} cannot open it: share the file or a folder holding it, read-only, with {user}.',
  'why.not_owned.own':
    "Document {id}: {user} has {file} among their own files, not the archive account's: only files of the archive account {archiveAccount} stand for documents.",
  'why.not_owned.other':
    'Document {id}: {user} sees {file}, but it belongs to {owner}: only files of the archive account {archiveAccount} stand for documents.',
  'why.not_owned.unknown':
    'Document {id}: {user} sees {file}, but it belongs to another account: only files of the archive account {archiveAccount} stand for documents.',
  'why.no_file.trash_name':
    'Document {id}: the archive account {archiveAccount} deleted its file with [P{id}]: {name} is in its trash; restore it (Files, Deleted files) to show it{besides}.',
  'why.no_file.trash':
    'Document {id}: the archive account {archiveAccount} deleted its file with [P{id}]: its file with [P{id}] is in its trash; restore it (Files, Deleted files) to show it{besides}.',
  'why.no_file.unreadable':
    'Document {id}: no file of the archive account {archiveAccount} that the database can answer for carries [P{id}] in its name; {storages}: a file there is shown to nobody{besides}.',
  'why.no_file.storage': 'its external storage {mountPoint} cannot be read from the database ({reason})',
  'why.no_file.storages': '{first}; {next}',
  'why.no_file.none':
    'Document {id}: no file of the archive account {archiveAccount} carries [P{id}] in its name: the synchronization has not written one, or names files without the marker{besides}.',
  'why.file.path': '{path}',
  'why.file.marker': 'a file with [P{id}]',
  'why.account_disabled': "{user}'s account is disabled, and a disabled account cannot log in and opens no file: enable it first",
  'cli.check.directory':
    "The directory of user_ldap's configuration {prefix} ({url}) answers and binds as the agent: its filters find {accounts} account(s) and {groups} group(s).",
  'cli.check.unsupported_shares':
    'The archive account shares {rooms} file(s) or folder(s) with Talk rooms and {boards} with Deck boards: such shares are not supported, and no one is shown a document through them (share with users, groups or teams instead).',
  'cli.check.access_rules':
    'File access control is on with the rule(s) {rules}: a file they block is not shown to the users they block it for (why names the rule).',
  'cli.check.access_rules_undecided':
    'File access control is on with the rule(s) {rules}; {undecided} depend(s) on the request (address, time, browser, URL or upload size), which cannot be decided ahead of the request: their files are never shown to the users they may block (why names the rule).',
  'overview.access_rules_undecided':
    'File access control rule(s) {rules} depend on the request and cannot be decided ahead of it: the files they may block are not shown to those users.',
  // File access control (rules/access-rules.ts): after „cannot open it:“
  'why.access_rule.blocked':
    "the access-control rule '{rule}' ({checks}) blocks it for {user} (File access control answers 404 to opening it): change the rule or its tags and groups",
  'why.access_rule.undecided':
    "the access-control rule '{rule}' ({checks}) may block it for {user}: it depends on the request (address, time, browser, URL or upload size) or on what the database does not hold (a directory group, a pattern or check read otherwise), which cannot be decided ahead of the request, so it is not shown",
  'why.access_rule.check.tag': 'system tag {tag}',
  'why.access_rule.check.not_tag': 'not system tag {tag}',
  'why.access_rule.check.group': 'group {group}',
  'why.access_rule.check.not_group': 'not group {group}',
  'why.access_rule.check.other': '{check} {operator} {value}',
  'why.access_rule.check.and': '{first}, {next}',
  'why.access_rule.check.missing': 'a check that no longer exists',
  'why.besides_disabled': "; besides, {user}'s account is disabled, and a disabled account cannot log in and opens no file: enable it first",
  // An LDAP account the directory keeps out (rules/directory-accounts.ts)
  'why.directory.gone':
    "{user}'s entry is gone from the LDAP directory, and Nextcloud refuses its login from that moment (before user_ldap marks the account deleted), so it opens no file: restore the entry, or remove the account",
  'why.directory.unreachable':
    "the LDAP directory of {user}'s account cannot be reached, and while it is down Nextcloud refuses every password login, so it opens no file: bring the directory back (check says what fails)",
  'why.besides_directory': '; besides, {why}',
  // The share a rule blocked, as the rules' sentences name it: the node, the share, its recipient
  'why.node.file_path': '{path}',
  'why.node.folder_path': '{path}',
  'why.node.file': 'the file',
  'why.node.folder': 'a folder holding it',
  'why.share.from': 'the share of {node} from {sharer}',
  'why.share.plain': 'the share of {node}',
  'why.to.user': '{user}',
  'why.to.group': 'group {group}',
  'why.to.team': 'team {team}',
  'why.to.team_member': 'team {team}, which {user} is a member of',
  'why.to.team_via': 'team {team}, which {user} is in {via}',
  'why.via.direct': 'directly',
  'why.via.group': 'through group {name}',
  'why.via.team': 'through team {name}',
  'why.unsupported.room': 'a Talk room',
  'why.unsupported.deck': 'a Deck board',
  'why.others.one': 'a share from {sharers}',
  'why.others.many': 'shares from {sharers}',
  // What each sharing rule explains when it blocks (src/core/host/rules/share-rules.ts)
  'why.obstacle.sharing_off': 'the sharing app (files_sharing) is disabled in Nextcloud, so no share reaches anyone: enable it',
  'why.obstacle.colliding':
    '{share} and {others} all reach {user} as {target}; Nextcloud mounts only one of them there, and which one the database does not tell: {user} renames the folder seen at {target} in Files, and Nextcloud then mounts the other one at {target}',
  'why.obstacle.colliding_known':
    '{share} and {others} all reach {user} as {target}; Nextcloud mounts only one of them there, the share from {mountedFrom} (Nextcloud mounts user shares first, then group shares, then team shares, and the last one at a path stays): {user} renames the folder seen at {target} in Files, and Nextcloud then mounts the other one at {target}',
  'why.obstacle.colliding_no_path':
    '{share} and {others} all reach {user} as one path; Nextcloud mounts only one of them there, and which one the database does not tell: {user} renames the folder seen at that path in Files, and Nextcloud then mounts the other one at that path',
  'why.obstacle.colliding_known_no_path':
    '{share} and {others} all reach {user} as one path; Nextcloud mounts only one of them there, the share from {mountedFrom} (Nextcloud mounts user shares first, then group shares, then team shares, and the last one at a path stays): {user} renames the folder seen at that path in Files, and Nextcloud then mounts the other one at that path',
  'why.obstacle.taken_target':
    "{share} reaches {user} as {target}, where {user} has a file or folder of their own; Nextcloud 33 moves the share to a free name beside it the next time it sets up {user}'s files (when {user} next opens Files or syncs), a name the database does not hold yet: ask again after that",
  'why.obstacle.taken_target_no_path':
    "{share} reaches {user} at a path where {user} has a file or folder of their own; Nextcloud 33 moves the share to a free name beside it the next time it sets up {user}'s files (when {user} next opens Files or syncs), a name the database does not hold yet: ask again after that",
  'why.obstacle.colliding_renamed':
    "{share} and {others} all reach {user} as {target}; Nextcloud 33 keeps {target} for the share from {mountedFrom} and moves the others to a free name beside it the next time it sets up {user}'s files (when {user} next opens Files or syncs), a name the database does not hold yet: ask again after that",
  'why.obstacle.colliding_renamed_no_path':
    "{share} and {others} all reach {user} as one path; Nextcloud 33 keeps that path for the share from {mountedFrom} and moves the others to a free name beside it the next time it sets up {user}'s files (when {user} next opens Files or syncs), a name the database does not hold yet: ask again after that",
  'why.obstacle.not_member': '{node} is shared with group {group}; {user} is not a member: add {user} to {group}, or share it with {user}',
  'why.obstacle.left': '{user} left the share of {node} with group {group} (removed it from their own files): share it again with {user}',
  'why.obstacle.left_team': '{user} left the share of {node} with team {team} (removed it from their own files): share it again with {user}',
  'why.obstacle.not_in_team':
    '{node} is shared with team {team}; {user} is not in it (neither directly, nor through a group or a team in it; an invitation not yet accepted does not count): add {user} to {team}, or share it with {user}',
  'why.obstacle.teams_off':
    '{node} is shared with team {team}, but the Teams app (circles) is not enabled for everyone in Nextcloud, so no team share reaches anyone: enable it, or share it with {user}',
  'why.obstacle.unsupported':
    '{node} reaches {user} only through {what}, whose members this product does not read (Talk rooms and Deck boards are not supported): share it with {user} or a group of theirs',
  'why.obstacle.declined': '{user} declined {share}: share it again with {user}',
  'why.obstacle.pending': '{user} has not accepted {share}: {user} accepts it in Files, under Shares',
  'why.obstacle.expired': '{share} with {to} expired on {day}: give it a later expiry date, or share it again',
  'why.obstacle.expired_undated': '{share} with {to} expired on an earlier day: give it a later expiry date, or share it again',
  'why.obstacle.disabled_sharer':
    '{share} comes from {account}, whose account is disabled, and Nextcloud hides shares of disabled accounts (files_sharing hide_disabled_user_shares): enable that account, or share it from an enabled one{assumed}',
  'why.obstacle.no_read': '{share} with {to} does not allow reading: give it the read permission',
  'why.obstacle.broken': "{share} is broken in Nextcloud (its folder left the owner's files or lost the share permission): share it again",
  'why.obstacle.unknown': '{share} does not reach {user}',
  'why.assumed.unknown_release':
    '; the Nextcloud release is not known here (no config.php read), so an unset hide_disabled_user_shares counts as hiding them, the side that shows nothing Nextcloud hides; if they show in Nextcloud, run occ config:app:set files_sharing hide_disabled_user_shares --value no',
  'why.assumed.unread_release':
    '; Nextcloud {version} was not read here, so an unset hide_disabled_user_shares counts as hiding them, the side that shows nothing Nextcloud hides; if they show in Nextcloud, run occ config:app:set files_sharing hide_disabled_user_shares --value no',

  // who's chains: how an account reaches the file
  'who.owner': "owner (the archive account's own folders)",
  'cli.check.external_unreadable':
    "The archive account's external storage {mountPoint} cannot be answered for from the database ({reason}): its files are shown to nobody.",
  'cli.check.external_reason.backend': 'a backend other than Local, whose content lies on another server',
  'cli.check.external_reason.credentials': "an authentication with each user's own or login credentials",
  'cli.check.external_reason.placeholder': 'a placeholder such as $user in its configuration: each user gets another storage',
  'cli.check.external_reason.no datadir': 'no location configured',
  'who.external': 'external storage mounted at {mountPoint}',
  'who.user_share': 'user share of {node} from {owner}',
  'who.user_reshare': "user share of {node} (a re-share by {sharer} of {owner}'s share)",
  'who.group_share': 'group {group}: share of {node} from {owner}',
  'who.group_reshare': "group {group}: share of {node} (a re-share by {sharer} of {owner}'s share)",
  'who.team_share': 'team {team}: share of {node} from {owner}',
  'who.team_reshare': "team {team}: share of {node} (a re-share by {sharer} of {owner}'s share)",
  'who.team_share_via': 'team {team} ({via}): share of {node} from {owner}',
  'who.team_reshare_via': "team {team} ({via}): share of {node} (a re-share by {sharer} of {owner}'s share)",

  // The host's location, schema and connection (host_config, host_schema, host_unreachable)
  'host_config.unknown': 'The host (Nextcloud) is not known: give --nextcloud DIR or --host-db URL (setup stores it for later commands).',
  'host_config.dbtype': "{file}: dbtype '{dbtype}' is not supported; only sqlite3, pgsql and mysql are.",
  'host_config.no_directory': 'The Nextcloud directory {path} does not exist or is not a directory (check --nextcloud / DUS_NEXTCLOUD).',
  'host_config.no_config': '{file} is missing: --nextcloud must name the Nextcloud installation directory (the one holding config/config.php).',
  'host_config.no_array': '{file} does not define $CONFIG as an array.',
  'host_config.not_php': '{file} is not valid PHP: {detail}.',
  'host_config.empty': '{file} holds an empty value.',
  'host_config.empty_key': "{file} holds an empty value for '{key}'.",
  'host_schema.unreadable': 'The host database could not be read, although every table and column it needs is there.',
  'host_schema.missing': 'The host database lacks a table or column the adapter reads: {detail}',
  'host_unreachable.checking': 'The host database could not be read while checking its tables: {detail}',
  'host_unreachable.lost': 'The connection to the host database was lost ({detail}).',
  'host_unreachable.directory':
    "The directory of user_ldap's configuration {prefix} ({url}) cannot be reached ({detail}): while it is down, no LDAP account is shown anything, and Nextcloud refuses every password login.",
  'host_unreachable.directory_bind':
    "The directory of user_ldap's configuration {prefix} ({url}) answers but refuses the agent's bind or search ({detail}): no LDAP account is shown anything; correct the agent's DN or password in user_ldap.",
  // The administration overview check's lines (setupchecks, Nextcloud's setup check, the admin page's Needs attention)
  'overview.heading': 'Document archive unified search:',
  'overview.correct_it': 'Correct it in the app settings: {link}',
  'overview.no_server': 'No archive server is configured.',
  'overview.token_unreadable': "The stored API token can't be decrypted: enter the token again.",
  'overview.token_none': 'No API token is stored: enter the token.',
  'overview.token_other_server': 'The stored API token was saved for another server: enter the token again.',
  'overview.no_account': 'No archive account is set, and the synchronization add-on names none.',
  'overview.unknown_account': 'The archive account {account} does not exist.',
  'overview.host_unreadable': 'The host could not be read to check the archive account ({code}).',
  'overview.search_failed': 'A search failed and none has worked since.',
  'overview.test_failed_at': 'The connection test of check or test failed ({code}) at {at}, and no test or search has worked since.',
  'overview.search_failed_at': 'A search failed ({code}) at {at} and none has worked since.',
  'overview.connected': 'Connected to the archive server at {url} ({version} at its last answer).',
  'overview.version': 'version {version}',
  'overview.version_api': 'version {version}, API version {api}',
  'overview.version_unknown': 'version unknown',
  'overview.version_unknown_api': 'version unknown, API version {api}',
  'overview.newer_release':
    "Paperless-ngx {version}: newer than the releases this version was checked against (up to {newest}); searches use {newest}'s rules.",
  // The command line's own lines around the tables and explanations (search, why, who), in --lang's or the locale's language
  'cli.note': 'Note:',
  'cli.search.head_id': 'ID',
  'cli.search.head_title': 'Title',
  'cli.search.head_verdict': 'Verdict',
  'cli.search.head_file': 'File',
  'cli.search.found': 'The archive server found {found} document(s); {shown} of the {listed} listed{range} show to {user}.',
  'cli.search.range': ' ({from}–{to} of its result)',
  'cli.search.none': 'The archive server found no document for this term.',
  'cli.search.past_end': "The archive server's result has no document from --cursor {offset} on.",
  'cli.search.file_legend':
    "File: the path {user} sees, with (owner's) when another account owns the file; owner:path is a path in that account's own files, which {user} cannot open.",
  'cli.search.explain_hint': 'Run again with --explain to learn why the others do not show.',
  'cli.search.more': 'More: run again with --cursor {next} for the next {count}.',
  'cli.why.verdict': 'Document {id} for {user}: {verdict}{at}.',
  'cli.why.at': ', at {path}',
  'cli.why.archive_not_asked': 'why does not ask the archive server: if it has no document {id} (search for it), nothing is wrong here.',
  'cli.who.head_account': 'Account',
  'cli.who.head_path': 'Path',
  'cli.who.head_through': 'Through',
  'cli.who.count': '{count} account(s) can open document {id} ({files}, of {archiveAccount}).',
} as const;

export type MessageKey = keyof typeof en;

/** Every key of the English catalog, each with a text in that language. */
export type Catalog = Readonly<Record<MessageKey, string>>;
