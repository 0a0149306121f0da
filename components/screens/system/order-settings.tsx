/** 受注設定 (`/system/orders`): the one order-settings record in the generic detail form. */
import ResourceDetailScreen from '@/components/resource/resource-detail-screen';
import { ORDER_SETTING_ID, orderSettingResource } from '@/lib/resources/order-setting';

export default function OrderSettingsScreen() {
  return <ResourceDetailScreen resource={orderSettingResource} params={{ id: String(ORDER_SETTING_ID) }} />;
}
