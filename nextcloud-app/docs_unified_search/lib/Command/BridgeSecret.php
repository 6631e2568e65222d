<?php

declare(strict_types=1);

namespace OCA\DocsUnifiedSearch\Command;

use OCA\DocsUnifiedSearch\AppInfo\Application;
use OCP\IAppConfig;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Output\OutputInterface;

/**
 * Stores the bridge secret read from standard input (`dus bridge:secret | occ
 * docs_unified_search:bridge-secret`), so that it never stands on a command line.
 */
class BridgeSecret extends Command {
	public function __construct(
		private IAppConfig $config,
	) {
		parent::__construct();
	}

	protected function configure(): void {
		$this->setName('docs_unified_search:bridge-secret')
			->setDescription('Store the secret the bridge signs its calls with, read from standard input (docs-unified-search bridge:secret | occ docs_unified_search:bridge-secret)');
	}

	protected function execute(InputInterface $input, OutputInterface $output): int {
		if (stream_isatty(STDIN)) {
			$output->writeln('<error>Pipe the secret in: docs-unified-search bridge:secret | occ docs_unified_search:bridge-secret</error>');
			return 2;
		}
		$secret = trim((string)fgets(STDIN));
		if (preg_match('/^[A-Za-z0-9_-]{43}$/', $secret) !== 1) {
			$output->writeln('<error>Standard input holds no bridge secret: pipe in what docs-unified-search bridge:secret writes.</error>');
			return 2;
		}
		$this->config->deleteKey(Application::APP_ID, 'bridge_secret');
		$this->config->setValueString(Application::APP_ID, 'bridge_secret', $secret, true, true);
		$output->writeln('The bridge secret is stored (sensitive app config docs_unified_search/bridge_secret).');
		return 0;
	}
}
