<?php

declare(strict_types=1);

namespace OCA\DocsUnifiedSearch\Dashboard;

use OCA\DocsUnifiedSearch\AppInfo\Application;
use OCA\DocsUnifiedSearch\Bridge\Answer;
use OCA\DocsUnifiedSearch\Bridge\BridgeClient;
use OCP\Dashboard\IButtonWidget;
use OCP\Dashboard\IConditionalWidget;
use OCP\Dashboard\IIconWidget;
use OCP\Dashboard\IReloadableWidget;
use OCP\Dashboard\Model\WidgetButton;
use OCP\Dashboard\Model\WidgetItem;
use OCP\Dashboard\Model\WidgetItems;
use OCP\IL10N;
use OCP\IURLGenerator;
use OCP\IUserSession;

/**
 * The dashboard widget `docs_unified_search-recent`: offered, listed and linked as the service
 * says for the acting user. The "more" button is the list-full link: Nextcloud's dashboard
 * shows it under a full list only.
 */
class RecentWidget implements IReloadableWidget, IButtonWidget, IIconWidget, IConditionalWidget {
	public const ID = 'docs_unified_search-recent';
	private const API = '/ocs/v2.php/apps/dashboard/api';

	/** @var array<string, array<mixed>|false> the service's widget entry per user, for this request */
	private array $listings = [];

	public function __construct(
		private BridgeClient $bridge,
		private IURLGenerator $urls,
		private IUserSession $session,
		private IL10N $l10n,
	) {
	}

	public function getId(): string {
		return self::ID;
	}

	/** The app's own title, in the user's language (Nextcloud's IL10N, l10n/); the ID while the service does not offer the widget. */
	public function getTitle(): string {
		$user = $this->session->getUser();
		$listing = $user === null ? false : $this->listing($user->getUID());
		return is_array($listing) ? $this->l10n->t('New in the archive') : self::ID;
	}

	public function getOrder(): int {
		return 50;
	}

	public function getIconClass(): string {
		return 'icon-docs_unified_search';
	}

	public function getIconUrl(): string {
		return $this->urls->getAbsoluteURL($this->urls->imagePath(Application::APP_ID, 'app.svg'));
	}

	public function getUrl(): ?string {
		return null;
	}

	public function load(): void {
		// Items come through the API (v2); the dashboard renders them itself.
	}

	public function isEnabled(): bool {
		$user = $this->session->getUser();
		return $user !== null && is_array($this->listing($user->getUID()));
	}

	public function getReloadInterval(): int {
		return 60;
	}

	public function getWidgetButtons(string $userId): array {
		$listing = $this->listing($userId);
		$own = $this->urls->getAbsoluteURL('/');
		$buttons = [];
		try {
			foreach (Answer::list(is_array($listing) ? ($listing['buttons'] ?? []) : [], 'buttons') as $at => $button) {
				$button = Answer::map($button, "buttons[$at]");
				$buttons[] = new WidgetButton(Answer::text($button['type'] ?? '', "buttons[$at].type", 20), Answer::url($button['link'] ?? '', "buttons[$at].link", $own), Answer::text($button['text'] ?? '', "buttons[$at].text", Answer::TITLE_LENGTH));
			}
		} catch (\UnexpectedValueException $problem) {
			$this->bridge->wrongShape('dashboard buttons', $problem);
			return [];
		}
		return $buttons;
	}

	public function getItemsV2(string $userId, ?string $since = null, int $limit = 7): WidgetItems {
		$query = ['widgets[]' => self::ID, 'limit' => $limit];
		if ($since !== null && $since !== '') {
			$query['sinceIds[' . self::ID . ']'] = $since;
		}
		$data = $this->bridge->ocsData($this->bridge->call('GET', self::API . '/v2/widget-items', $query, $userId, false, null, 8));
		$own = $this->urls->getAbsoluteURL('/');
		try {
			$list = Answer::map($data[self::ID] ?? [], 'widget');
			$items = [];
			foreach (Answer::list($list['items'] ?? [], 'items') as $at => $item) {
				$item = Answer::map($item, "items[$at]");
				$items[] = new WidgetItem(
					Answer::text($item['title'] ?? '', "items[$at].title", Answer::TITLE_LENGTH),
					Answer::text($item['subtitle'] ?? '', "items[$at].subtitle"),
					Answer::url($item['link'] ?? '', "items[$at].link", $own),
					Answer::url($item['iconUrl'] ?? '', "items[$at].iconUrl", $own),
					Answer::text($item['sinceId'] ?? '', "items[$at].sinceId", 100),
					Answer::url($item['overlayIconUrl'] ?? '', "items[$at].overlayIconUrl", $own),
				);
			}
			return new WidgetItems($items, Answer::text($list['emptyContentMessage'] ?? '', 'emptyContentMessage'), Answer::text($list['halfEmptyContentMessage'] ?? '', 'halfEmptyContentMessage'));
		} catch (\UnexpectedValueException $problem) {
			$this->bridge->wrongShape('dashboard items', $problem);
			return new WidgetItems([], '', '');
		}
	}

	/** @return array<mixed>|false */
	private function listing(string $userId): array|false {
		if (!array_key_exists($userId, $this->listings)) {
			$data = $this->bridge->ocsData($this->bridge->call('GET', self::API . '/v1/widgets', [], $userId, false, null, 5));
			$entry = $data[self::ID] ?? null;
			$this->listings[$userId] = is_array($entry) ? $entry : false;
		}
		return $this->listings[$userId];
	}
}
