// What other features may use of the economy.
export { buyItem } from './member';
export { createShopItem } from './service';
